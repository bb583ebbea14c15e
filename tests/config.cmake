kalah_add_test(config_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/config_test.cpp LIBS kalah_config)
kalah_add_test(schedule_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/schedule_test.cpp LIBS kalah_schedule)
# ctest -R is case-sensitive and the discovered cases are named Config*.* and Schedule*.*; these
# entries run each whole binary so that `ctest -R 'config|schedule'` selects the modules too.
add_test(NAME config_test_all COMMAND config_test)
add_test(NAME schedule_test_all COMMAND schedule_test)
