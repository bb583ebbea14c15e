# End-to-end tests: the real `referee` and `arena` executables against the bundled bots and the
# misbehaving test engine. Shared helpers are in tests/e2e_util.h.
kalah_add_test(match_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/match_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(match_e2e_test referee bad_engine kalah-random kalah-greedy)

kalah_add_test(arena_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/arena_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
# kalah-mcts thinks for its whole movetime: it keeps a run going long enough to be interrupted.
add_dependencies(arena_e2e_test arena kalah-random kalah-greedy kalah-mcts)

kalah_add_test(scale_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/scale_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(scale_e2e_test arena kalah-random kalah-greedy kalah-alphabeta kalah-mcts)
