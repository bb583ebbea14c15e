# `arena serve` under 1000 live clients on loopback: a ply's time from its live file to the clients, the
# server's CPU and memory, next to a loopback round trip in the same run (docs/PERFORMANCE.md).
add_executable(sse_bench ${CMAKE_CURRENT_SOURCE_DIR}/sse_bench.cpp)
target_include_directories(sse_bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(sse_bench PRIVATE kalah_runner kalah_rules kalah_system fmt::fmt Threads::Threads)
target_compile_definitions(sse_bench PRIVATE KALAH_BINARY_DIR="${CMAKE_BINARY_DIR}")
if(TARGET arena)
  add_dependencies(sse_bench arena)
endif()

# A live file's plies read by the server's LiveFeed: CPU time per ply (docs/PERFORMANCE.md, "Live plies").
add_executable(live_feed_bench ${CMAKE_CURRENT_SOURCE_DIR}/live_feed_bench.cpp)
target_include_directories(live_feed_bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(live_feed_bench PRIVATE kalah_serve kalah_runner kalah_rules kalah_system benchmark::benchmark
                                              Threads::Threads)
