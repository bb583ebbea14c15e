# The engine authors' kit (docs/WRITING_A_BOT.md): `cmake --install` into a temporary prefix, the bot
# template built out of tree against it and played, the too-old-compiler error, the Python bots played.
# SERIAL: it compiles the template while it runs.
kalah_add_test(kit_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kit_test.cpp LIBS Boost::json)
target_include_directories(kit_test PRIVATE ${CMAKE_SOURCE_DIR})
target_compile_definitions(kit_test PRIVATE
  CMAKE_COMMAND="${CMAKE_COMMAND}" KALAH_CXX_COMPILER="${CMAKE_CXX_COMPILER}"
  KALAH_CXX_COMPILER_ID="${CMAKE_CXX_COMPILER_ID}" KALAH_INSTALL_LIBDIR="${CMAKE_INSTALL_LIBDIR}"
  KALAH_BUILD_TYPE="${CMAKE_BUILD_TYPE}")
if(KALAH_SANITIZE OR KALAH_TSAN OR KALAH_FUZZ)
  # The installed libraries of an instrumented build need the sanitizer runtime the template does not link.
  target_compile_definitions(kit_test PRIVATE KALAH_INSTRUMENTED=1)
endif()
# `cmake --install` needs everything it installs built.
add_dependencies(kit_test referee arena kalah-random kalah-greedy kalah-mcts kalah-alphabeta kalah-solver)

# The Python kit's rules (against tests/data/rules-vectors.jsonl) and protocol loop.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME python_kit_test COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/kit/kalah_engine_test.py)
set_tests_properties(python_kit_test PROPERTIES ENVIRONMENT PYTHONDONTWRITEBYTECODE=1 TIMEOUT 120)
