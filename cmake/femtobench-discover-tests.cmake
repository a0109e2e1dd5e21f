# SPDX-License-Identifier: MIT
# The build-time half of femtobench_discover_tests (cmake/femtobench-discover.cmake),
# run with cmake -P after each build of the suite: lists its benchmarks
# (`-list`) and writes FB_TESTS_FILE, one add_test per benchmark. Every
# name and path is written as a bracket argument, so a name with spaces,
# quotes, ';', '$' or '#' is one argument, taken literally.
cmake_minimum_required(VERSION 3.16)

string(ASCII 31 sep)
foreach(v FB_EMULATOR FB_ARGS FB_LABELS)
  string(REPLACE "${sep}" ";" ${v} "${${v}}")
endforeach()

# text as a bracket argument [==[text]==], with enough '=' that text cannot end it.
function(fb_bracket text out)
  set(eq "=")
  while(text MATCHES "]${eq}]" OR text MATCHES "]${eq}$")
    string(APPEND eq "=")
  endwhile()
  set(${out} "[${eq}[${text}]${eq}]" PARENT_SCOPE)
endfunction()

execute_process(
  COMMAND ${FB_EMULATOR} "${FB_EXECUTABLE}" ${FB_ARGS} -list
  WORKING_DIRECTORY "${FB_WORKING_DIRECTORY}"
  TIMEOUT ${FB_TIMEOUT}
  OUTPUT_VARIABLE listed
  ERROR_VARIABLE errors
  RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  # a stale list would run benchmarks that no longer exist
  file(REMOVE "${FB_TESTS_FILE}")
  message(FATAL_ERROR "femtobench_discover_tests(${FB_TARGET}): `${FB_EXECUTABLE} -list` "
    "failed (${rc}):\n${errors}")
endif()

set(command "")
foreach(word IN LISTS FB_EMULATOR)
  fb_bracket("${word}" b)
  string(APPEND command " ${b}")
endforeach()
fb_bracket("${FB_EXECUTABLE}" b)
string(APPEND command " ${b}")
foreach(word IN LISTS FB_ARGS)
  fb_bracket("${word}" b)
  string(APPEND command " ${b}")
endforeach()
fb_bracket("${FB_WORKING_DIRECTORY}" wd)
set(labels "")
if(FB_LABELS)
  fb_bracket("${FB_LABELS}" b)
  set(labels " LABELS ${b}")
endif()

set(out "# Written by femtobench_discover_tests from `${FB_TARGET} -list`; rewritten after each build.\n")
set(count 0)
# one name a line; a ';' in a name must not split it: the lines are split by hand
string(REPLACE "\r" "" listed "${listed}")
while(NOT listed STREQUAL "")
  string(FIND "${listed}" "\n" nl)
  if(nl EQUAL -1)
    set(name "${listed}")
    set(listed "")
  else()
    string(SUBSTRING "${listed}" 0 ${nl} name)
    math(EXPR nl "${nl} + 1")
    string(SUBSTRING "${listed}" ${nl} -1 listed)
  endif()
  if(name STREQUAL "")
    continue()
  endif()
  # -filter matches the whole name as a POSIX extended regex: every
  # metacharacter escaped, the benchmark alone is selected (SipHash/64, a.b, x+y)
  string(REGEX REPLACE "([][.*+?{}()|^$\\\\])" "\\\\\\1" regex "${name}")
  fb_bracket("${FB_PREFIX}${name}" test)
  fb_bracket("-filter=${regex}" filter)
  string(APPEND out "add_test(${test}${command} -sanity_check ${filter})\n"
    "set_tests_properties(${test} PROPERTIES WORKING_DIRECTORY ${wd}${labels})\n")
  math(EXPR count "${count} + 1")
endwhile()
file(WRITE "${FB_TESTS_FILE}" "${out}")
