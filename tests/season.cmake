# A season (docs/SEASON.md): its parts on their own (season_test: roster, tokens, season.toml, multipart, uploads,
# the revision store, the limiter), and `arena season init` + `arena serve --season` over loopback with real
# uploads (season_e2e_test).
kalah_add_test(season_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_test.cpp
               LIBS kalah_season kalah_integrity LibArchive::LibArchive)
add_dependencies(season_test kalah-random kalah-greedy)
kalah_add_test(season_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_e2e_test.cpp
               LIBS Boost::headers Boost::json LibArchive::LibArchive)
add_dependencies(season_e2e_test arena kalah-random kalah-greedy)
# The season's end: the freeze record and the final's config on their own (season_freeze_test), and freeze, a
# refused upload and a verified final through the real server and commands (season_final_e2e_test).
kalah_add_test(season_freeze_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_freeze_test.cpp
               LIBS kalah_season kalah_contest)
add_dependencies(season_freeze_test kalah-random kalah-greedy)
kalah_add_test(season_final_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_final_e2e_test.cpp
               LIBS Boost::headers Boost::json LibArchive::LibArchive)
add_dependencies(season_final_e2e_test arena kalah-random kalah-greedy)
# The watched submissions folder (docs/SEASON.md, "A watched folder"): its looks and the watcher over a real store
# (season_inbox_test), and the server taking files in, refusing hostile ones and never twice after kill -9
# (season_inbox_e2e_test).
kalah_add_test(season_inbox_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_inbox_test.cpp
               LIBS kalah_season kalah_integrity LibArchive::LibArchive)
kalah_add_test(season_inbox_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_inbox_e2e_test.cpp
               LIBS kalah_integrity Boost::headers Boost::json)
add_dependencies(season_inbox_e2e_test arena kalah-random kalah-greedy)
# A season's pseudonyms (season_pseudonyms_test): the derivation, DIR/pseudonyms.txt, a key changed mid-season.
kalah_add_test(season_pseudonyms_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_pseudonyms_test.cpp
               LIBS kalah_season)
add_dependencies(season_pseudonyms_test kalah-random kalah-greedy)
kalah_add_test(season_pseudonyms_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_pseudonyms_e2e_test.cpp
               LIBS Boost::headers Boost::json)
add_dependencies(season_pseudonyms_e2e_test arena kalah-random kalah-greedy)
# The analysis of the ladder (docs/SEASON.md, "Analysis of the ladder"): a game's verdict and the author's JSON on
# their own (season_analysis_test), and the server analysing its ladder, an author's page naming the move that lost
# one of their games, nobody else's (season_analysis_e2e_test).
kalah_add_test(season_analysis_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_analysis_test.cpp
               LIBS kalah_season Boost::json)
kalah_add_test(season_analysis_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_analysis_e2e_test.cpp
               LIBS kalah_rules Boost::headers Boost::json)
add_dependencies(season_analysis_e2e_test arena kalah-random kalah-greedy)
# The ladder on Slurm (docs/SEASON.md, "The ladder on Slurm"): its games as Slurm jobs, in the standings, and a kill -9
# of the server while they run (season_slurm_e2e_test; skipped without the one-node Slurm of tools/slurm-local.sh).
kalah_add_test(season_slurm_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/season_slurm_e2e_test.cpp
               LIBS Boost::headers Boost::json)
add_dependencies(season_slurm_e2e_test arena kalah-random kalah-greedy)
