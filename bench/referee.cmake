# Per-ply overhead of the referee against instant-reply engines, next to a raw
# pipe ping-pong measured in the same run.
add_executable(ply_bench ${CMAKE_CURRENT_SOURCE_DIR}/ply_bench.cpp)
target_link_libraries(ply_bench PRIVATE kalah_engine kalah_game fmt::fmt)
target_compile_definitions(ply_bench PRIVATE KALAH_BINARY_DIR="${CMAKE_BINARY_DIR}")
if(TARGET instant_engine)
  add_dependencies(ply_bench instant_engine kalah-random)
endif()

# The whole `referee match` command per ply, next to a pipe ping-pong in the same run; give it the
# referee of another build to compare side by side (docs/PERFORMANCE.md).
add_executable(match_bench ${CMAKE_CURRENT_SOURCE_DIR}/match_bench.cpp)
target_include_directories(match_bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(match_bench PRIVATE kalah_rules Boost::json fmt::fmt)
target_compile_definitions(match_bench PRIVATE KALAH_BINARY_DIR="${CMAKE_BINARY_DIR}")
if(TARGET referee)
  add_dependencies(match_bench referee arena kalah-random)
endif()

# The shared bot loop's own cost per ply, in process, from a recorded session (bots/common).
add_executable(bot_loop_bench ${CMAKE_CURRENT_SOURCE_DIR}/bot_loop_bench.cpp)
target_link_libraries(bot_loop_bench PRIVATE kalah_bot kalah_rules fmt::fmt)

# What publishing plies (the live files of arena/runner) costs a game, without and with a watcher reading them
# as `arena serve` does, and with a real `arena serve` following them, side by side in one run
# (docs/PERFORMANCE.md, "Live plies").
add_executable(live_bench ${CMAKE_CURRENT_SOURCE_DIR}/live_bench.cpp)
target_include_directories(live_bench PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(live_bench PRIVATE kalah_serve kalah_runner kalah_engine kalah_game kalah_system fmt::fmt)
target_compile_definitions(live_bench PRIVATE KALAH_BINARY_DIR="${CMAKE_BINARY_DIR}")
if(TARGET instant_engine)
  add_dependencies(live_bench instant_engine)
endif()
if(TARGET arena)
  add_dependencies(live_bench arena)
endif()
