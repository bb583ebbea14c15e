# kalah-solver: index, move generator, exact values, databases, the engine and the executable.
kalah_add_test(solver_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/solver_test.cpp LIBS kalah_solver_engine)
add_dependencies(solver_test kalah-solver)
# Certified books: start positions with seeds moved, certificates, `book --check`.
kalah_add_test(solver_book_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/solver_book_test.cpp LIBS kalah_solver_engine)
# The shipped draw books re-certified (a sample), a wrong certificate refused, the reports' "proven draw".
kalah_add_test(fair_book_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fair_book_test.cpp LIBS kalah_solver_engine kalah_flow)
add_dependencies(fair_book_test kalah-solver)
