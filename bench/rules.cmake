add_executable(perft_bench ${CMAKE_CURRENT_SOURCE_DIR}/perft_bench.cpp)
target_link_libraries(perft_bench PRIVATE kalah_rules benchmark::benchmark)
