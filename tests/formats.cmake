# The tournament formats: every kind has its format, and only the registries name kinds (arena/formats).
kalah_add_test(formats_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/formats_test.cpp LIBS kalah_formats)
