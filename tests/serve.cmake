# `arena serve` (docs/SERVE.md): the listen policy, the token and the request targets on their own
# (serve_test), and the real server over a real tournament's results on loopback (serve_e2e_test).
kalah_add_test(serve_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_test.cpp LIBS kalah_serve)
kalah_add_test(serve_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_e2e_test.cpp LIBS Boost::headers Boost::json)
add_dependencies(serve_e2e_test arena kalah-random kalah-greedy)
# The live stream's parts (serve_live_test): the live file's lines, SSE framing and ids, a feed over synthetic
# live files; and a real `arena run` streamed over SSE, with a reconnect (serve_live_e2e_test).
kalah_add_test(serve_live_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_live_test.cpp
               LIBS kalah_serve kalah_runner kalah_record_json Boost::json)
kalah_add_test(serve_live_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_live_e2e_test.cpp
               LIBS Boost::headers Boost::json)
add_dependencies(serve_live_e2e_test arena kalah-greedy bad_engine)
# The page in headless Chromium, driven by tests/browser/serve_page.js (skipped without chromium or node).
kalah_add_test(serve_browser_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_browser_test.cpp
               LIBS Boost::headers Boost::json)
add_dependencies(serve_browser_test arena kalah-greedy kalah-mcts bad_engine)
# A sharded run (two `arena run --shard I/2` into one folder) listed, streamed and served as one tournament.
kalah_add_test(serve_shards_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/serve_shards_e2e_test.cpp
               LIBS Boost::headers Boost::json)
add_dependencies(serve_shards_e2e_test arena kalah-random kalah-greedy kalah-mcts)
