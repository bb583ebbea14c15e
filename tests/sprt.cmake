kalah_add_test(sprt_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sprt_test.cpp LIBS kalah_runner kalah_stats)
add_dependencies(sprt_test arena kalah-random kalah-greedy kalah-alphabeta)
