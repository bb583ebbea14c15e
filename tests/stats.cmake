kalah_add_test(stats_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/stats_test.cpp LIBS kalah_stats)
