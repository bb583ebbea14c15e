kalah_add_test(config_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/config_test.cpp LIBS kalah_config)
kalah_add_test(schedule_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/schedule_test.cpp LIBS kalah_schedule)
kalah_add_test(match_cli_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/match_cli_test.cpp LIBS kalah_config)
add_dependencies(match_cli_test arena kalah-random kalah-greedy)
