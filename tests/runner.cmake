# arena/runner and arena/flow with scripted in-process players (no engine processes).
kalah_add_test(runner_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runner_test.cpp
  LIBS kalah_flow kalah_runner kalah_journal kalah_schedule kalah_config kalah_system kalah_formats)
