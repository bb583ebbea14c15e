# A season (docs/SEASON.md): its parts on their own (season_test: roster, tokens, season.toml, multipart, uploads,
# the revision store, the limiter), and `arena season init` + `arena serve --season` over loopback with real
# uploads (season_e2e_test).
kalah_add_test(season_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_test.cpp
               LIBS kalah_season kalah_integrity LibArchive::LibArchive)
add_dependencies(season_test kalah-random kalah-greedy)
kalah_add_test(season_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_e2e_test.cpp
               LIBS Boost::headers Boost::json LibArchive::LibArchive)
add_dependencies(season_e2e_test arena kalah-random kalah-greedy)
