# Small pieces (tools/check-sizes.py, docs/ARCHITECTURE.md): no source file over 600 lines and no function over
# 100 under arena/, referee/ and bots/, measured by libclang with the flags of this tree's
# compile_commands.json; and the checker on small made-up trees. Both are skipped (exit 77) without Debian's
# python3-clang-14, which .ci/run installs. Registered in full builds only, as layers_test: a sanitizer or
# fuzzing tree (KALAH_FUZZ) would check the same sources a second time.
if(KALAH_FUZZ)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME check_sizes_test COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/sizes/check_sizes_test.py
                                       ${CMAKE_SOURCE_DIR}/tools/check-sizes.py)
set_tests_properties(check_sizes_test PROPERTIES ENVIRONMENT PYTHONDONTWRITEBYTECODE=1 SKIP_RETURN_CODE 77
                                                  TIMEOUT 300)
