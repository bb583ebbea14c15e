# `referee suite`: the drawn positions, their labels and file, the grades (suite_test); the command on the
# bundled bots and misbehaving engines (suite_e2e_test).
kalah_add_test(suite_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/suite_test.cpp LIBS kalah_suite)

kalah_add_test(suite_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/suite_e2e_test.cpp LIBS Boost::json)
add_dependencies(suite_e2e_test referee bad_engine kalah-random kalah-greedy kalah-alphabeta kalah-solver)
