# Perfect-play analysis: analysis.jsonl, the judgement of games and engines, the exact values of plies.
kalah_add_test(analysis_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/analysis_test.cpp LIBS kalah_analysis kalah_journal)
