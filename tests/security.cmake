# Hostile submissions built and played as the organiser runs them (root in CI): docs/SECURITY.md.
kalah_add_test(security_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/security_e2e_test.cpp LIBS kalah_config kalah_contest kalah_system)
add_dependencies(security_e2e_test arena referee kalah-random hostile_engine)
# 1000 sandboxed engine starts in a row (bench/sandbox_soak.sh runs 10 000): no zombie, folder or forfeit.
kalah_add_test(sandbox_soak_test SERIAL SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox_soak_test.cpp LIBS kalah_engine)
add_dependencies(sandbox_soak_test arena instant_engine)
# The seeds engines are sent are keyed with the results folder's secret: nothing names a game or an opponent.
kalah_add_test(seed_secret_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/seed_secret_e2e_test.cpp LIBS kalah_game Boost::json)
add_dependencies(seed_secret_e2e_test arena instant_engine)
