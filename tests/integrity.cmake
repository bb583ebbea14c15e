# Checking results: SHA-256, the games replayed by the rules, engine digests, the archive reader
# (arena/integrity); and `arena verify` / `arena archive` end to end on real runs.
kalah_add_test(integrity_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/integrity_test.cpp
  LIBS kalah_integrity kalah_rules LibArchive::LibArchive)

kalah_add_test(verify_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/verify_e2e_test.cpp LIBS kalah_rules Boost::json)
add_dependencies(verify_e2e_test arena kalah-random kalah-greedy bad_engine)
# The same commands on hostile folders and archives (FIFOs, devices, links, crafted ids and engine paths), as root
# in CI: docs/SECURITY.md.
kalah_add_test(verify_hostile_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/verify_hostile_e2e_test.cpp
  LIBS kalah_integrity kalah_rules Boost::json)
add_dependencies(verify_hostile_e2e_test arena kalah-random bad_engine)
