# Precompiled headers (docs/PERFORMANCE.md, "Build and CI time"). Measured per translation unit, the
# standard library's heavy headers cost about 1 CPU-second of parsing; one precompiled header, compiled
# once by an owner target and reused (PRECOMPILE_HEADERS_REUSE_FROM) by every module, parses them once.
#
#   kalah_pch_std(<target>...)   compile <target> with the standard library's precompiled header
#
# GCC takes a precompiled header only where the macros it looked at are defined as when it was made;
# CMake adds -Winvalid-pch, so a mismatch is a warning (an error with KALAH_WERROR), never a silent
# slowdown. The standard library looks at no macro of ours or of a library, so every target can share it.
# The tests have their own, of the same headers and GoogleTest, made with the test code's flags
# (tests/CMakeLists.txt). Not precompiled, as measured: Boost.JSON and fmt for the tests (a header with them
# made the tests' build slower: loading a 150 MB header into every file is not free), and CLI11 (its cost is
# the code its global validators generate in every file that includes it; `referee` and `arena` are unity
# builds instead, see the top-level CMakeLists.txt).

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

# -O0 for <target>..., with a precompiled header made at -O0 (the sanitizer trees, top-level CMakeLists.txt).
function(kalah_compile_at_o0)
  if(KALAH_PCH AND NOT TARGET kalah_pch_std_o0)
    kalah_pch_owner(kalah_pch_std_o0 ${KALAH_PCH_STD_HEADERS})
    target_compile_options(kalah_pch_std_o0 PRIVATE -O0)
  endif()
  foreach(target ${ARGN})
    target_compile_options(${target} PRIVATE -O0)
    if(KALAH_PCH)
      set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM kalah_pch_std_o0)
    endif()
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
