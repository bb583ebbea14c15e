# Precompiled headers (docs/PERFORMANCE.md, "Build and CI time"). Measured per translation unit, the
# standard library's heavy headers cost about 1 CPU-second of parsing, GoogleTest 2, Boost.JSON 2; a
# precompiled header parses them once for the whole build instead.
#
# A header is compiled once by an owner target and reused (PRECOMPILE_HEADERS_REUSE_FROM) by the others.
# GCC takes it only where the macros it looked at are defined as when it was made; CMake adds
# -Winvalid-pch, so a mismatch is a warning (an error with KALAH_WERROR), never a silent slowdown. Hence
# two groups:
#   kalah_pch_std(<target>...)   the standard library only: no macro of ours or of a library matters,
#                                so every product target can share it;
#   kalah_pch_tests(<target>...) the standard library, GoogleTest, Boost.JSON and fmt for the test
#                                executables, which are given the same libraries (and so the same
#                                definitions) for it.
# CLI11 is not in either: its cost is the code its global validators generate in every translation unit
# that includes it, which a precompiled header does not save; the two executables are unity builds instead.

set(KALAH_PCH_STD_HEADERS
  <algorithm> <array> <atomic> <chrono> <cstdint> <filesystem> <fstream> <functional> <map> <memory> <mutex>
  <optional> <set> <sstream> <string> <string_view> <thread> <unordered_map> <utility> <variant> <vector>)

# An owner compiles the header from an empty source file with the build's common flags.
function(kalah_pch_owner name)
  set(source ${CMAKE_BINARY_DIR}/generated/${name}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "// Owner of the precompiled header ${name} (cmake/pch.cmake).\n")
  add_library(${name} OBJECT ${source})
  target_precompile_headers(${name} PRIVATE ${ARGN})
endfunction()

if(KALAH_PCH)
  kalah_pch_owner(kalah_pch_std ${KALAH_PCH_STD_HEADERS})
endif()

function(kalah_pch_std)
  if(NOT KALAH_PCH)
    return()
  endif()
  foreach(target ${ARGN})
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM kalah_pch_std)
  endforeach()
endfunction()

function(kalah_pch_tests)
  if(NOT KALAH_PCH)
    return()
  endif()
  if(NOT TARGET kalah_pch_tests)
    kalah_pch_owner(kalah_pch_tests ${KALAH_PCH_STD_HEADERS} <gtest/gtest.h> <boost/json.hpp> <fmt/format.h>)
    target_link_libraries(kalah_pch_tests PRIVATE GTest::gtest Boost::json fmt::fmt Threads::Threads)
  endif()
  foreach(target ${ARGN})
    target_link_libraries(${target} PRIVATE GTest::gtest Boost::json fmt::fmt)
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM kalah_pch_tests)
  endforeach()
endfunction()

# Every target created so far in this directory (and the directories below) that compiles C++ of ours:
# executables and static libraries, without the owners themselves. For applying a group after the
# module folders have declared their targets, so that a new module gets it without a line of its own.
function(kalah_targets_below dir out)
  get_directory_property(targets DIRECTORY ${dir} BUILDSYSTEM_TARGETS)
  get_directory_property(subdirs DIRECTORY ${dir} SUBDIRECTORIES)
  foreach(sub ${subdirs})
    kalah_targets_below(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(result)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$" AND NOT target MATCHES "^kalah_pch_")
      list(APPEND result ${target})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
