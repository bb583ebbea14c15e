# The CPU clock ([time] clock = "cpu", docs/PROCESSES.md "CPU time"): its accounting reader.
kalah_add_test(cpu_time_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cpu_time_test.cpp LIBS kalah_engine)
# End to end: forfeits at the wall-clock safety limit and on CPU time, feature clock, and an oversubscribed
# tournament with busy processes beside it (SERIAL: it loads every CPU on purpose), from a control group and
# from the schedstat fallback (KALAH_CPU_CLOCK_SCHEDSTAT=1).
kalah_add_test(cpu_clock_e2e_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cpu_clock_e2e_test.cpp
  LIBS kalah_engine Boost::json)
add_dependencies(cpu_clock_e2e_test referee arena bad_engine instant_engine hostile_engine kalah-mcts kalah-random)
