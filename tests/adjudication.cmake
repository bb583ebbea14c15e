# Adjudication: store majority, the endgame database, draw and resign rules; alone and in the game loop.
kalah_add_test(adjudication_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/adjudication_test.cpp LIBS kalah_game)
