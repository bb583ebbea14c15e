kalah_add_test(rules_test
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/rules_test.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/rules_property_test.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/rules_vectors_test.cpp
  LIBS kalah_rules Boost::json)
target_compile_definitions(rules_test PRIVATE KALAH_TEST_DATA="${KALAH_TEST_DATA}")

# "Did you mean" (referee/rules/spelling.h), used by the protocol's options, both command lines and the config.
kalah_add_test(spelling_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/spelling_test.cpp LIBS kalah_rules)
