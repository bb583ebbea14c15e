kalah_add_test(kgp_codec_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_codec_test.cpp LIBS kalah_kgp_codec)
kalah_add_test(kgp_server_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_server_test.cpp LIBS kalah_kgp)
kalah_add_test(kgp_client_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_client_e2e_test.cpp LIBS kalah_kgp)
add_dependencies(kgp_client_e2e_test referee kalah-greedy kalah-random kalah-mcts)
kalah_add_test(kgp_host_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_host_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(kgp_host_e2e_test referee arena kalah-greedy kalah-random)
