# `arena serve` (docs/SERVE.md): the listen policy, the token and the request targets on their own
# (serve_test), and the real server over a real tournament's results on loopback (serve_e2e_test).
kalah_add_test(serve_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_test.cpp LIBS kalah_serve)
kalah_add_test(serve_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_e2e_test.cpp LIBS Boost::headers Boost::json)
add_dependencies(serve_e2e_test arena kalah-random kalah-greedy)
