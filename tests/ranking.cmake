kalah_add_test(ranking_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ranking_test.cpp LIBS kalah_rating kalah_report kalah_record_json)
kalah_add_test(ranking_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ranking_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(ranking_e2e_test arena kalah-alphabeta)
kalah_add_test(rank_interval_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/rank_interval_test.cpp LIBS kalah_rating kalah_report)
