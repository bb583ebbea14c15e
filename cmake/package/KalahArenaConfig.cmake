# find_package(KalahArena) for engine authors (docs/WRITING_A_BOT.md): the installed rules and
# protocol loop of Kalah Arena as static libraries with their headers.
#   kalah::rules     the rules (referee/rules/position.h, variant.h, ...)
#   kalah::protocol  the KEP codec (referee/protocol/protocol.h), with kalah::rules
#   kalah::engine    the protocol loop a bot is built on (bots/common/bot.h), with both
# Each brings C++20 to whatever links it. A compiler too old for the headers stops here, saying which
# compiler was found and what is needed, rather than in the middle of a header.
include(${CMAKE_CURRENT_LIST_DIR}/KalahArenaCompiler.cmake)
kalah_arena_compiler_problem(_kalah_arena_problem "${CMAKE_CXX_COMPILER_ID}" "${CMAKE_CXX_COMPILER_VERSION}"
                             "${CMAKE_CXX_COMPILE_FEATURES}")
if(_kalah_arena_problem)
  if(KalahArena_FIND_REQUIRED)
    message(FATAL_ERROR "KalahArena: ${_kalah_arena_problem}")
  endif()
  set(KalahArena_FOUND FALSE)
  set(KalahArena_NOT_FOUND_MESSAGE "${_kalah_arena_problem}")
  unset(_kalah_arena_problem)
  return()
endif()
unset(_kalah_arena_problem)

include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/KalahArenaTargets.cmake)
