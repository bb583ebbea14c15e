kalah_add_test(kgp_codec_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_codec_test.cpp LIBS kalah_kgp_codec)
kalah_add_test(kgp_server_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/kgp_server_test.cpp LIBS kalah_kgp)
