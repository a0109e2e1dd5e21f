# SPDX-License-Identifier: MIT
# femtobench_discover_tests(<target> [LABELS <label>...] [ARGS <arg>...]
#                           [TEST_PREFIX <prefix>] [WORKING_DIRECTORY <dir>]
#                           [DISCOVERY_TIMEOUT <seconds>])
# registers each benchmark of an FB_MAIN suite as its own ctest test, as
# gtest_discover_tests does for GoogleTest: after each build of <target>
# (POST_BUILD) the suite is run with `-list` (and ARGS: `-filter=...` or
# `-shard=k/n` narrow what is registered), and each name it prints becomes
# the test `<prefix><name>`, which runs the suite with ARGS, `-sanity_check`
# and a `-filter` that selects exactly that benchmark (its name with the
# regex metacharacters escaped). So `ctest -j` runs the benchmarks in
# parallel, and a failure names the benchmark. The list is written to
# `<target>_tests.cmake` in the current binary directory (`<target>-2_tests.cmake`
# for a second call on the same target, one per configuration with a
# multi-config generator) and included at test time (the directory's
# TEST_INCLUDE_FILES). A build whose `-list` fails fails, and leaves no list. Cross-compiling, the suite is run
# through CMAKE_CROSSCOMPILING_EMULATOR (the target's property, else the
# variable); without one no test is registered (a warning says so).
# Included by the installed femtobench-config.cmake (with find_package) and
# by the top-level CMakeLists.txt (in-tree and as a subproject).
include_guard(GLOBAL)

# The build-time script beside this file, kept where any directory's call finds it.
set_property(GLOBAL PROPERTY FEMTOBENCH_DISCOVER_SCRIPT
  "${CMAKE_CURRENT_LIST_DIR}/femtobench-discover-tests.cmake")

function(femtobench_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "TEST_PREFIX;WORKING_DIRECTORY;DISCOVERY_TIMEOUT" "LABELS;ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "femtobench_discover_tests(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "femtobench_discover_tests(${target}): no such target")
  endif()
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  if(NOT arg_DISCOVERY_TIMEOUT)
    set(arg_DISCOVERY_TIMEOUT 30) # -list runs no benchmark: seconds are plenty
  endif()
  get_property(script GLOBAL PROPERTY FEMTOBENCH_DISCOVER_SCRIPT)

  get_target_property(emulator ${target} CROSSCOMPILING_EMULATOR)
  if(NOT emulator)
    set(emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  endif()
  if(CMAKE_CROSSCOMPILING AND NOT emulator)
    message(WARNING "femtobench_discover_tests(${target}): cross-compiling without "
      "CMAKE_CROSSCOMPILING_EMULATOR: the suite cannot be listed here, no test is registered")
    return()
  endif()

  # One list per configuration with a multi-config generator: ctest -C picks it.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  # a second call for the same target (other ARGS, another prefix) writes its own list
  get_property(calls TARGET ${target} PROPERTY FEMTOBENCH_DISCOVER_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(TARGET ${target} PROPERTY FEMTOBENCH_DISCOVER_CALLS ${calls})
  set(base "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  if(calls GREATER 1)
    string(APPEND base "-${calls}")
  endif()
  if(multi_config)
    set(tests_file "${base}-$<CONFIG>_tests.cmake")
  else()
    set(tests_file "${base}_tests.cmake")
  endif()
  # Lists are passed escaped (';' as '\;' would be split by the command
  # line): each element on its own, joined by a character no argument holds.
  string(ASCII 31 sep)
  foreach(v emulator arg_ARGS arg_LABELS)
    string(REPLACE ";" "${sep}" ${v}_joined "${${v}}")
  endforeach()
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${tests_file}"
    COMMAND "${CMAKE_COMMAND}"
      -D "FB_TARGET=${target}"
      -D "FB_EXECUTABLE=$<TARGET_FILE:${target}>"
      -D "FB_EMULATOR=${emulator_joined}"
      -D "FB_ARGS=${arg_ARGS_joined}"
      -D "FB_LABELS=${arg_LABELS_joined}"
      -D "FB_PREFIX=${arg_TEST_PREFIX}"
      -D "FB_WORKING_DIRECTORY=${arg_WORKING_DIRECTORY}"
      -D "FB_TIMEOUT=${arg_DISCOVERY_TIMEOUT}"
      -D "FB_TESTS_FILE=${tests_file}"
      -P "${script}"
    WORKING_DIRECTORY "${arg_WORKING_DIRECTORY}"
    COMMENT "femtobench_discover_tests: listing ${target}'s benchmarks"
    VERBATIM)

  # Included by ctest: the list if the suite was built, else one failing test that says so.
  set(include_file "${base}_include.cmake")
  if(multi_config)
    set(wanted "${base}-\${CTEST_CONFIGURATION_TYPE}_tests.cmake")
  else()
    set(wanted "${tests_file}")
  endif()
  file(WRITE "${include_file}"
    "if(EXISTS \"${wanted}\")\n"
    "  include(\"${wanted}\")\n"
    "else()\n"
    "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
