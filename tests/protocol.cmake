kalah_add_test(protocol_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/protocol_test.cpp LIBS kalah_protocol)
