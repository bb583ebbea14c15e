# The one sandboxed build (arena/sandbox_build) on its own; the contest's and the git SPRT's suites run it end to end.
kalah_add_test(sandbox_build_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox_build_test.cpp LIBS kalah_sandbox_build)
