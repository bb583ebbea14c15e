# Swiss pairing, knockout brackets and the round-by-round game source.
kalah_add_test(pairing_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pairing_test.cpp LIBS kalah_runner kalah_schedule)
