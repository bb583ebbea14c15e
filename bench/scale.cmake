# Scale-out: synthetic journals for the report and merge benchmarks (bench/scale.sh).
add_executable(make-journal ${CMAKE_CURRENT_SOURCE_DIR}/make_journal.cpp)
target_link_libraries(make-journal PRIVATE kalah_journal kalah_record_json kalah_rules CLI11::CLI11 fmt::fmt)
