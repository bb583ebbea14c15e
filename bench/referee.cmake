# Per-ply overhead of the referee against instant-reply engines, next to a raw
# pipe ping-pong measured in the same run.
add_executable(ply_bench ${CMAKE_CURRENT_SOURCE_DIR}/ply_bench.cpp)
target_link_libraries(ply_bench PRIVATE kalah_engine kalah_game fmt::fmt)
target_compile_definitions(ply_bench PRIVATE KALAH_BINARY_DIR="${CMAKE_BINARY_DIR}")
if(TARGET instant_engine)
  add_dependencies(ply_bench instant_engine kalah-random)
endif()
