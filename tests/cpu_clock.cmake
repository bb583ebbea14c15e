# The CPU clock ([time] clock = "cpu", docs/PROCESSES.md "CPU time"): its accounting reader.
kalah_add_test(cpu_time_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cpu_time_test.cpp LIBS kalah_engine)
