kalah_add_test(config_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/config_test.cpp LIBS kalah_config)
# ConfigExamples reads the bundled configs, which name the bundled bots: built with the test.
add_dependencies(config_test kalah-random kalah-greedy kalah-mcts kalah-alphabeta kalah-solver)
kalah_add_test(schedule_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/schedule_test.cpp LIBS kalah_schedule)
kalah_add_test(match_cli_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/match_cli_test.cpp LIBS kalah_config)
add_dependencies(match_cli_test arena kalah-random kalah-greedy)
kalah_add_test(description_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/description_test.cpp LIBS kalah_config)
kalah_add_test(config_toml_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/config_toml_test.cpp LIBS kalah_config)
add_dependencies(config_toml_test kalah-random kalah-greedy kalah-mcts kalah-alphabeta kalah-solver)
