# Golden files (tests/golden/): the --help of both executables and the reports of fixed games,
# compared byte for byte. tools/update-golden.sh rewrites them.
kalah_add_test(golden_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/golden_test.cpp
  LIBS kalah_report kalah_record_json kalah_rating kalah_rules)
add_dependencies(golden_test arena referee)
