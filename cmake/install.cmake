# `cmake --install build [--prefix DIR]`: the referee, the arena and the bundled bots in bin/ (the Python
# one a link into share/), and the engine authors' kit (docs/WRITING_A_BOT.md): the CMake package
# KalahArena (kalah::rules, kalah::protocol, kalah::engine: static libraries, their headers under
# include/kalah-arena/ at the paths this tree uses), the bot template, the Python helper and the
# pull-request SPRT's script under share/kalah-arena/.
# Nothing else (tests, benchmarks, fuzzers) has an install rule.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KALAH_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/KalahArena)
set(KALAH_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/kalah-arena)

install(TARGETS referee arena kalah-random kalah-greedy kalah-mcts kalah-alphabeta kalah-solver
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(TARGETS kalah_rules kalah_protocol kalah_bot EXPORT KalahArenaTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah-arena)
install(FILES referee/rules/expected.h referee/rules/opening.h referee/rules/perft.h referee/rules/position.h
              referee/rules/variant.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah-arena/referee/rules)
install(FILES referee/protocol/protocol.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah-arena/referee/protocol)
install(FILES bots/common/bot.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah-arena/bots/common)

install(EXPORT KalahArenaTargets NAMESPACE kalah:: DESTINATION ${KALAH_PACKAGE_DIR})
# Before 1.0 a minor version may change the API: 0.1 finds 0.1.x only.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/KalahArenaConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES cmake/package/KalahArenaConfig.cmake cmake/package/KalahArenaCompiler.cmake
              ${CMAKE_BINARY_DIR}/KalahArenaConfigVersion.cmake
        DESTINATION ${KALAH_PACKAGE_DIR})

install(FILES kit/bot-template/CMakeLists.txt kit/bot-template/main.cpp kit/bot-template/README.md
        DESTINATION ${KALAH_SHARE_DIR}/bot-template)
install(FILES bots/python/kalah_engine.py DESTINATION ${KALAH_SHARE_DIR}/python)
# The pull-request SPRT's script (docs/SPRT.md, "On a pull request"), for a workflow that uses an installed arena.
install(PROGRAMS tools/sprt-pr.sh DESTINATION ${KALAH_SHARE_DIR}/ci)
install(PROGRAMS bots/python/example_bot.py bots/python/random_bot.py DESTINATION ${KALAH_SHARE_DIR}/python)
# bin/kalah-python-random: a relative link to the installed random_bot.py, as in the build tree
# (bots/python/CMakeLists.txt), so that an installed arena finds it by name beside its other bots.
file(RELATIVE_PATH KALAH_PYTHON_RANDOM ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${KALAH_SHARE_DIR}/python/random_bot.py)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/install-links)
file(CREATE_LINK ${KALAH_PYTHON_RANDOM} ${CMAKE_BINARY_DIR}/install-links/kalah-python-random SYMBOLIC)
install(FILES ${CMAKE_BINARY_DIR}/install-links/kalah-python-random DESTINATION ${CMAKE_INSTALL_BINDIR})
