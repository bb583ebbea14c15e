# End-to-end tests: the real `referee` and `arena` executables against the bundled bots and the
# misbehaving test engine. Shared helpers are in tests/e2e_util.h.
kalah_add_test(match_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/match_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(match_e2e_test referee bad_engine kalah-random kalah-greedy)

kalah_add_test(arena_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/arena_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
# kalah-mcts thinks for its whole movetime: it keeps a run going long enough to be interrupted.
add_dependencies(arena_e2e_test arena kalah-random kalah-greedy kalah-mcts instant_engine)

kalah_add_test(scale_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/scale_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(scale_e2e_test arena kalah-random kalah-greedy kalah-alphabeta kalah-mcts)

# Untrusted engines in the sandbox: one at a time (they look for any process left in the sandbox uids).
kalah_add_test(sandbox_e2e_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox_e2e_test.cpp
  LIBS kalah_engine Boost::json)
add_dependencies(sandbox_e2e_test arena hostile_engine instant_engine)

kalah_add_test(bad_input_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/bad_input_test.cpp LIBS kalah_rules)
add_dependencies(bad_input_test arena referee bad_engine)

kalah_add_test(pinning_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pinning_test.cpp LIBS kalah_config kalah_runner)
add_dependencies(pinning_test arena hostile_engine instant_engine kalah-mcts)

# report.html in headless chromium (skipped, saying why, without chromium and python3-pil).
kalah_add_test(browser_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/browser_test.cpp LIBS kalah_report kalah_rules
               Boost::json)
add_dependencies(browser_test arena kalah-random kalah-greedy bad_engine)

kalah_add_test(start_position_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/start_position_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(start_position_e2e_test arena referee instant_engine kalah-random kalah-greedy kalah-alphabeta
  kalah-mcts kalah-solver)

# Swiss and knockout tournaments: rounds, reports, and resuming a cut-off journal to the same result.
kalah_add_test(rounds_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/rounds_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(rounds_e2e_test arena kalah-random kalah-greedy kalah-alphabeta kalah-mcts)

# `arena sprt --bench`: the engines' bench counts recorded, declared and compared on resume.
kalah_add_test(sprt_bench_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sprt_bench_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(sprt_bench_e2e_test arena referee bad_engine kalah-random kalah-greedy)

# Repeated games: counted, warned about before the run and reported; none from a book of openings.
kalah_add_test(repeated_games_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/repeated_games_e2e_test.cpp LIBS Boost::json)
add_dependencies(repeated_games_e2e_test arena kalah-alphabeta)

# A bundled config copied out of the repository: its bots, the Python one too, found by name.
kalah_add_test(copied_config_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/copied_config_e2e_test.cpp LIBS Boost::json)
add_dependencies(copied_config_e2e_test arena kalah-random kalah-greedy kalah-mcts kalah-alphabeta)

# Engines without name= called by the name they announce (`id name`) in `arena match` and `referee match`.
kalah_add_test(engine_names_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/engine_names_e2e_test.cpp LIBS Boost::json)
add_dependencies(engine_names_e2e_test arena referee kalah-random bad_engine)

# `arena --version`, `referee --version` and cmake/version.cmake on a source tree without git.
kalah_add_test(version_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/version_e2e_test.cpp)
target_compile_definitions(version_e2e_test PRIVATE KALAH_CMAKE="${CMAKE_COMMAND}")
add_dependencies(version_e2e_test arena referee)
