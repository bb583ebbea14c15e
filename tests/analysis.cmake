# Perfect-play analysis: analysis.jsonl, the judgement of games and engines, the exact values of plies.
kalah_add_test(analysis_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/analysis_test.cpp LIBS kalah_analysis kalah_journal)
# What an analysis adds to the reports: the standings of every format, the viewer, the bot pages.
kalah_add_test(analysis_report_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/analysis_report_test.cpp
               LIBS kalah_report kalah_journal kalah_record_json kalah_system)
