# referee/system: atomic files, executables on PATH, the UTC clock.
kalah_add_test(system_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/system_test.cpp LIBS kalah_system)
