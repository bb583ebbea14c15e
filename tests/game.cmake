kalah_add_test(game_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/game_test.cpp LIBS kalah_game)
