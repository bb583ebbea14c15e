# referee/process: tests against the misbehaving engines in tests/engines/.
add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/engines ${CMAKE_BINARY_DIR}/tests/engines)
kalah_add_test(process_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/process_test.cpp LIBS kalah_process)
add_dependencies(process_test bad_engine instant_engine)
