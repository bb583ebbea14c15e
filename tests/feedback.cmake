# Feedback for every author: transcripts, bot pages and `referee replay-transcript`, end to end with the
# misbehaving test engine.
kalah_add_test(feedback_e2e_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/feedback_e2e_test.cpp
  LIBS kalah_game kalah_transcript_file kalah_engine kalah_report kalah_record_json)
add_dependencies(feedback_e2e_test arena referee bad_engine kalah-random kalah-greedy)
