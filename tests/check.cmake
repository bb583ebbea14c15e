# `referee check` end to end: the bundled bots, the sandbox probes and every misbehaviour of bad_engine.
kalah_add_test(check_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/check_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(check_e2e_test referee bad_engine instant_engine hostile_engine kalah-random kalah-greedy
                 kalah-alphabeta kalah-mcts kalah-solver)

kalah_add_test(check_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/check_test.cpp LIBS kalah_check)
