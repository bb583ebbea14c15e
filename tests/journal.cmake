# Record JSON, the journal (resume support) and the reporters.
kalah_add_test(journal_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/journal_test.cpp LIBS kalah_journal kalah_record)
kalah_add_test(report_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/report_test.cpp LIBS kalah_report kalah_record)
# ctest -R is case-sensitive and the discovered cases are named RecordJson.*, Journal*.*, Report*.*:
# these entries run each whole binary so that `ctest -R 'journal|report'` selects them.
add_test(NAME journal_test_all COMMAND journal_test)
add_test(NAME report_test_all COMMAND report_test)
