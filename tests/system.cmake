# referee/system: atomic files, executables on PATH, the UTC clock; trees someone else controls.
kalah_add_test(system_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/system_test.cpp LIBS kalah_system)
kalah_add_test(untrusted_files_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/untrusted_files_test.cpp LIBS kalah_system)
kalah_add_test(clean_text_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/clean_text_test.cpp LIBS kalah_system)
kalah_add_test(confusables_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/confusables_test.cpp LIBS kalah_system)
