# Scale-out: synthetic journals for the report and merge benchmarks (bench/scale.sh).
add_executable(make-journal ${CMAKE_CURRENT_SOURCE_DIR}/make_journal.cpp)
target_link_libraries(make-journal PRIVATE kalah_journal kalah_record_json kalah_rules CLI11::CLI11 fmt::fmt)

add_executable(report_bench ${CMAKE_CURRENT_SOURCE_DIR}/report_bench.cpp)
target_link_libraries(report_bench PRIVATE kalah_report kalah_rating kalah_record_json kalah_rules benchmark::benchmark)
