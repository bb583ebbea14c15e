# The searching bots: in-process tests of their choosers plus end-to-end tests
# of the engine executables (which must be built first).
kalah_add_test(bots_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/bots_test.cpp LIBS kalah_alphabeta kalah_mcts)
add_dependencies(bots_test kalah-alphabeta kalah-mcts kalah-greedy kalah-random)
