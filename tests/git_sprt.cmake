# SPRTs between two commits of a repository (docs/SPRT.md, "From git"): refs, the build cache, its lock.
kalah_add_test(git_build_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/git_build_test.cpp LIBS kalah_git kalah_config)
