# Swiss pairing, knockout brackets and the round-by-round game source.
kalah_add_test(pairing_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pairing_test.cpp LIBS kalah_runner kalah_schedule kalah_formats)
# Adaptive pairing: the scheduler against a fit made in the test, its budget, determinism and resumption,
# and its config keys.
kalah_add_test(adaptive_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/adaptive_test.cpp
               LIBS kalah_runner kalah_schedule kalah_rating kalah_config kalah_formats)
kalah_add_test(adaptive_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/adaptive_e2e_test.cpp
               LIBS kalah_rules Boost::json)
add_dependencies(adaptive_e2e_test arena kalah-random kalah-greedy kalah-alphabeta)
# A season's ladder: the pair choice with entrants who join and leave, and its game source resumed from a journal.
kalah_add_test(ladder_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ladder_test.cpp
               LIBS kalah_runner kalah_schedule kalah_config)
# Finals that stop themselves: the stopping rule on hand-built fields, and finals played in memory.
kalah_add_test(final_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/final_test.cpp LIBS kalah_schedule kalah_rating)
kalah_add_test(final_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/final_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(final_e2e_test arena kalah-random kalah-greedy kalah-alphabeta)
