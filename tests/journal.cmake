# Record JSON, the journal (resume support) and the reporters.
kalah_add_test(journal_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/journal_test.cpp LIBS kalah_journal kalah_record_json)
kalah_add_test(report_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/report_test.cpp LIBS kalah_report kalah_record_json)
kalah_add_test(bot_pages_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/bot_pages_test.cpp LIBS kalah_report)
# The one report service and SPRT record: the contest's withdrawal with an analysis, an older SPRT folder read.
kalah_add_test(report_service_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/report_service_test.cpp
               LIBS kalah_report kalah_contest kalah_integrity kalah_journal kalah_config Boost::json)
