# The docs test (docs/DEVELOPING.md, "The docs test"): every command block of README.md and docs/*.md run from a
# scratch folder and compared with the output it shows, or marked not run with its reason; the README's layout
# table checked against the module folders. It runs the built arena, referee, bots and tests/engines, so it is
# registered in full builds only: a sanitizer or fuzzing tree (KALAH_FUZZ, as CI's) builds a chosen few targets.
if(KALAH_FUZZ)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME docs_test COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/docs/docs_test.py
                                ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(docs_test PROPERTIES ENVIRONMENT PYTHONDONTWRITEBYTECODE=1 TIMEOUT 300)
