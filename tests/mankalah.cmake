kalah_add_test(mankalah_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/mankalah_test.cpp LIBS kalah_engine)
add_dependencies(mankalah_test kalah-random)
