# Contests: submissions built in the sandbox and checked, late entries, withdrawals, disqualifications.
kalah_add_test(contest_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/contest_e2e_test.cpp LIBS kalah_config kalah_schedule Boost::json)
add_dependencies(contest_e2e_test arena kalah-random)
