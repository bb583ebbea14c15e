kalah_add_test(kgp_codec_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_codec_test.cpp LIBS kalah_kgp_codec)
kalah_add_test(kgp_server_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_server_test.cpp LIBS kalah_kgp)
kalah_add_test(kgp_client_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_client_e2e_test.cpp LIBS kalah_kgp)
add_dependencies(kgp_client_e2e_test referee kalah-greedy kalah-random kalah-mcts)
# kgp-client over wss:// (TLS), with a certificate the test makes with the openssl tool (skipped without it).
kalah_add_test(kgp_wss_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_wss_e2e_test.cpp LIBS kalah_system)
add_dependencies(kgp_wss_e2e_test referee kalah-greedy kalah-random)
kalah_add_test(kgp_host_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_host_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(kgp_host_e2e_test referee arena kalah-greedy kalah-random)
# `referee check` of KGP agents: tests/engines/kgp_agent.py in each of its ways.
kalah_add_test(kgp_check_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_check_e2e_test.cpp LIBS kalah_rules)
add_dependencies(kgp_check_e2e_test referee)
# `referee suite` of KGP agents: by their moves (freeplay) or their evals (eval).
kalah_add_test(kgp_suite_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_suite_e2e_test.cpp LIBS Boost::json)
add_dependencies(kgp_suite_e2e_test referee)
# How a KGP agent reaches its server (kgp_transport: TCP or a WebSocket) and its start-up deadline.
kalah_add_test(kgp_transport_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_transport_e2e_test.cpp
  LIBS kalah_rules kalah_record_json)
add_dependencies(kgp_transport_e2e_test referee arena kalah-greedy kalah-random)
