# kalah-solver: solve times (database timed apart) and database build speed.
add_executable(solver_bench ${CMAKE_CURRENT_SOURCE_DIR}/solver_bench.cpp)
target_link_libraries(solver_bench PRIVATE kalah_solver benchmark::benchmark)
