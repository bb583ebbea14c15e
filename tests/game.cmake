kalah_add_test(game_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/game_test.cpp LIBS kalah_game)
kalah_add_test(transcript_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/transcript_test.cpp LIBS kalah_transcript_file)
