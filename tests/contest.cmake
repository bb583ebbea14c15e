# Contests: submissions built in the sandbox and checked, late entries, withdrawals, disqualifications.
kalah_add_test(contest_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/contest_e2e_test.cpp LIBS kalah_config kalah_contest kalah_schedule Boost::json)
add_dependencies(contest_e2e_test arena kalah-random bad_engine)
# The sanity gate: [submissions] gate read and checked, and bots kept out or let in by it end to end.
kalah_add_test(contest_gate_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/contest_gate_test.cpp LIBS kalah_config kalah_contest Boost::json)
add_dependencies(contest_gate_test arena kalah-random kalah-greedy)
