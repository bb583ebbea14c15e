kalah_add_test(ranking_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ranking_test.cpp LIBS kalah_rating)
