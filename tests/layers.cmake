# The module order (tools/check-layers.py, docs/ARCHITECTURE.md): the tree itself, and the checker on small
# made-up trees that break the order each in one way. Seconds, no build needed; .ci/run checks the tree
# again before building anything. Registered in full builds only: a sanitizer or fuzzing tree (KALAH_FUZZ)
# would check the same sources a second time.
if(KALAH_FUZZ)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME layers_test COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/tools/check-layers.py ${CMAKE_SOURCE_DIR})
add_test(NAME check_layers_test COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/layers/check_layers_test.py
                                        ${CMAKE_SOURCE_DIR}/tools/check-layers.py)
set_tests_properties(layers_test check_layers_test PROPERTIES ENVIRONMENT PYTHONDONTWRITEBYTECODE=1 TIMEOUT 60)
