# The engine kit's compiler check on a compiler named on the command line, for tests/kit_test.cpp:
#   cmake -DID=GNU -DVERSION=9.4.0 "-DFEATURES=cxx_std_17;cxx_std_20" -P tests/kit/compiler_check.cmake
# prints (on stderr) what kalah_arena_compiler_problem() says about it, or "ok".
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/package/KalahArenaCompiler.cmake)
kalah_arena_compiler_problem(problem "${ID}" "${VERSION}" "${FEATURES}")
if(problem)
  message(NOTICE "${problem}")
else()
  message(NOTICE "ok")
endif()
