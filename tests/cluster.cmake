# The Slurm scripts of `arena slurm` (the end-to-end submission is in scale_e2e_test).
kalah_add_test(cluster_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cluster_test.cpp LIBS kalah_cluster)
