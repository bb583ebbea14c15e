# Part of the installed CMake package (and of the source tree): whether a C++ compiler can build
# against Kalah Arena's headers. Kept apart from KalahArenaConfig.cmake so that a test can call the
# check with any compiler name and version (tests/kit/compiler_check.cmake).
#
# The headers need C++20: defaulted comparison operators (`operator==(...) = default`, also with
# parameters taken by value), which GCC has from version 10 and Clang from version 10. Any other
# compiler must at least say it knows C++20.
set(KALAH_ARENA_MIN_GCC 10)
set(KALAH_ARENA_MIN_CLANG 10)

# Sets <out> in the caller to the reason <id> <version> (CMAKE_CXX_COMPILER_ID, _VERSION) with the
# C++ features <features> (CMAKE_CXX_COMPILE_FEATURES) cannot be used, or to "" when it can.
function(kalah_arena_compiler_problem out id version features)
  # list(FIND) rather than if(IN_LIST), which a project under an old cmake_minimum_required lacks.
  list(FIND features cxx_std_20 cxx20)
  set(hint ". Choose another compiler with -DCMAKE_CXX_COMPILER=... in a new build folder.")
  if(id STREQUAL "")
    set(problem "no C++ compiler is enabled: give project() the language CXX before find_package(KalahArena)")
  elseif(id STREQUAL "GNU" AND version VERSION_LESS KALAH_ARENA_MIN_GCC)
    set(problem "the C++ compiler is GCC ${version}; Kalah Arena's headers need C++20, GCC ${KALAH_ARENA_MIN_GCC} or newer${hint}")
  elseif(id STREQUAL "Clang" AND version VERSION_LESS KALAH_ARENA_MIN_CLANG)
    set(problem "the C++ compiler is Clang ${version}; Kalah Arena's headers need C++20, Clang ${KALAH_ARENA_MIN_CLANG} or newer${hint}")
  elseif(cxx20 EQUAL -1)
    set(problem "the C++ compiler is ${id} ${version}, which does not support C++20; Kalah Arena's headers need C++20 (GCC ${KALAH_ARENA_MIN_GCC} or Clang ${KALAH_ARENA_MIN_CLANG} or newer)${hint}")
  else()
    set(problem "")
  endif()
  set(${out} "${problem}" PARENT_SCOPE)
endfunction()
