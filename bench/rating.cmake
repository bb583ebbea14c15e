add_executable(rating_bench ${CMAKE_CURRENT_SOURCE_DIR}/rating_bench.cpp)
target_link_libraries(rating_bench PRIVATE kalah_rating benchmark::benchmark)
add_executable(rank_interval_bench ${CMAKE_CURRENT_SOURCE_DIR}/rank_interval_bench.cpp)
target_link_libraries(rank_interval_bench PRIVATE kalah_rating benchmark::benchmark)
