kalah_add_test(rating_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/rating_test.cpp LIBS kalah_rating)
