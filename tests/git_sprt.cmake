# SPRTs between two commits of a repository (docs/SPRT.md, "From git"): refs, the build cache, its lock.
kalah_add_test(git_build_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/git_build_test.cpp LIBS kalah_git kalah_config)
# End to end: H1 and H0 between commits of a temporary repository, resuming without a build, a failed build.
kalah_add_test(git_sprt_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/git_sprt_e2e_test.cpp LIBS kalah_engine Boost::json)
add_dependencies(git_sprt_e2e_test arena kalah-random kalah-alphabeta)
