# A staged tournament (docs/CONFIG.md, "Staged"): the drop rule, the final order and the keys on their own
# (staged_test), and `arena run` of one with the bundled bots, killed mid-stage and resumed, `arena verify` passing
# on it and failing on a tampered stage, and a season's staged final (staged_e2e_test).
kalah_add_test(staged_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/staged_test.cpp LIBS kalah_staged kalah_config)
kalah_add_test(staged_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/staged_e2e_test.cpp
               LIBS kalah_rules kalah_record_json Boost::json)
add_dependencies(staged_e2e_test arena kalah-random kalah-greedy kalah-alphabeta kalah-mcts)
