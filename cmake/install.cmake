# SPDX-License-Identifier: MIT
# Installation and packaging, included at the end of the top-level CMakeLists.txt.
#
#   cmake --install build --prefix /opt/fb   puts in place
#     include/femtobench.h
#     include/compat/gbench/benchmark/benchmark.h, include/compat/nanobench/{nanobench.h,bench/bench.h}
#                                             Google Benchmark's and nanobench's APIs (docs/migrating.md)
#     bin/femtobench-compare                  (docs/baselines.md; FEMTOBENCH_BUILD_COMPARE)
#     bin/femtobench-ab                       (docs/ab.md; FEMTOBENCH_BUILD_AB, Linux)
#     bin/femtobench-ab-git                   (docs/ab.md; tools/ab_git.sh, with femtobench-ab)
#     lib/libfemtobench.a                     (and libfemtobench.so with FEMTOBENCH_BUILD_SHARED)
#     lib/cmake/femtobench/                   find_package(femtobench CONFIG) -> femtobench::femtobench,
#                                             femtobench_add_plugin(), femtobench_discover_tests()
#     lib/pkgconfig/femtobench.pc             pkg-config --cflags --libs femtobench
#     lib/pkgconfig/femtobench-{benchmark,nanobench}.pc   the same with a compat include folder
#     lib/libfemtobench_benchmark_main.a, lib/pkgconfig/femtobench-benchmark-main.pc
#                                             Google Benchmark's benchmark_main (a main; C++ builds)
#     share/doc/femtobench/LICENSE
#
# As a subproject (add_subdirectory / FetchContent) nothing here is needed:
# link femtobench::femtobench. Install rules are then off by default
# (FEMTOBENCH_INSTALL), so a parent's `cmake --install` does not ship us.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(${CMAKE_CURRENT_LIST_DIR}/single_header.cmake)

option(FEMTOBENCH_INSTALL "Generate the install rules" ${PROJECT_IS_TOP_LEVEL})
option(FEMTOBENCH_BUILD_SHARED "Also build libfemtobench.so (target femtobench::femtobench_shared)" OFF)

# femtobench::benchmark, femtobench::nanobench: the compat headers (docs/migrating.md);
# femtobench::benchmark_main: Google Benchmark's benchmark_main (lib/libfemtobench_benchmark_main.a)
set(FB_INSTALL_TARGETS femtobench femtobench_benchmark femtobench_nanobench)
if(TARGET femtobench_benchmark_main) # with a C++ compiler
  list(APPEND FB_INSTALL_TARGETS femtobench_benchmark_main)
endif()
if(FEMTOBENCH_BUILD_SHARED)
  # The same sources as the static library (FB_SOURCES, from the top level).
  add_library(femtobench_shared SHARED ${FB_SOURCES})
  fb_use_src_dirs(femtobench_shared)
  add_library(femtobench::femtobench_shared ALIAS femtobench_shared)
  set_target_properties(femtobench_shared PROPERTIES
    OUTPUT_NAME femtobench
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  target_include_directories(femtobench_shared PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_options(femtobench_shared PRIVATE ${FB_WARNINGS})
  target_compile_definitions(femtobench_shared PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(femtobench_shared PUBLIC Threads::Threads m)
  list(APPEND FB_INSTALL_TARGETS femtobench_shared)
endif()

if(TARGET femtobench-compare)
  list(APPEND FB_INSTALL_TARGETS femtobench-compare) # bin/femtobench-compare
endif()
if(TARGET femtobench-ab)
  list(APPEND FB_INSTALL_TARGETS femtobench-ab) # bin/femtobench-ab (docs/ab.md)
endif()

if(NOT FEMTOBENCH_INSTALL)
  return()
endif()

set(FB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/femtobench)

install(TARGETS ${FB_INSTALL_TARGETS}
  EXPORT femtobench-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/femtobench.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/compat
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT femtobench-targets
  NAMESPACE femtobench::
  FILE femtobench-targets.cmake
  DESTINATION ${FB_CMAKE_DIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/femtobench-config.cmake.in
  ${PROJECT_BINARY_DIR}/femtobench-config.cmake
  INSTALL_DESTINATION ${FB_CMAKE_DIR})
# 0.x: a minor release may break the API, so only the same MAJOR.MINOR matches.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/femtobench-config-version.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/femtobench-config.cmake
  ${PROJECT_BINARY_DIR}/femtobench-config-version.cmake
  ${CMAKE_CURRENT_LIST_DIR}/femtobench-plugin.cmake
  ${CMAKE_CURRENT_LIST_DIR}/femtobench-layout-pad.c
  ${CMAKE_CURRENT_LIST_DIR}/femtobench-discover.cmake
  ${CMAKE_CURRENT_LIST_DIR}/femtobench-discover-tests.cmake
  DESTINATION ${FB_CMAKE_DIR})

# pkg-config. The prefix is written relative to the .pc file (${pcfiledir}),
# so `cmake --install --prefix ELSEWHERE` and moved trees still resolve.
set(FB_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  file(RELATIVE_PATH FB_PC_UP "/fbroot/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/fbroot")
  string(REGEX REPLACE "/$" "" FB_PC_UP "${FB_PC_UP}")
  set(FB_PC_PREFIX "\${pcfiledir}/${FB_PC_UP}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(FB_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(FB_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/femtobench.pc.in
  ${PROJECT_BINARY_DIR}/femtobench.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/femtobench.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# pkg-config femtobench-benchmark: Google Benchmark's API (docs/migrating.md)
file(WRITE ${PROJECT_BINARY_DIR}/femtobench-benchmark.pc
  "prefix=${FB_PC_PREFIX}\nincludedir=${FB_PC_INCLUDEDIR}\n\n"
  "Name: femtobench-benchmark\nDescription: Google Benchmark's API on femtobench\n"
  "Version: ${PROJECT_VERSION}\nRequires: femtobench\n"
  "Cflags: -I\${includedir}/compat/gbench\n")
# pkg-config femtobench-benchmark-main: the same with a main (benchmark_main)
file(WRITE ${PROJECT_BINARY_DIR}/femtobench-benchmark-main.pc
  "prefix=${FB_PC_PREFIX}\nlibdir=${FB_PC_LIBDIR}\n\n"
  "Name: femtobench-benchmark-main\nDescription: Google Benchmark's benchmark_main on femtobench\n"
  "Version: ${PROJECT_VERSION}\nRequires: femtobench-benchmark\n"
  "Libs: -L\${libdir} -lfemtobench_benchmark_main\n")
file(WRITE ${PROJECT_BINARY_DIR}/femtobench-nanobench.pc
  "prefix=${FB_PC_PREFIX}\nincludedir=${FB_PC_INCLUDEDIR}\n\n"
  "Name: femtobench-nanobench\nDescription: nanobench's API on femtobench\n"
  "Version: ${PROJECT_VERSION}\nRequires: femtobench\n"
  "Cflags: -I\${includedir}/compat/nanobench\n")
install(FILES ${PROJECT_BINARY_DIR}/femtobench-benchmark.pc
  ${PROJECT_BINARY_DIR}/femtobench-nanobench.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET femtobench_benchmark_main)
  install(FILES ${PROJECT_BINARY_DIR}/femtobench-benchmark-main.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# femtobench-ab-git (docs/ab.md): tools/ab_git.sh with the path from the bin
# directory to the prefix filled in, so that it hands its own install to the
# projects it builds (CMAKE_PREFIX_PATH) wherever the tree is moved. Only with
# femtobench-ab, which it runs.
if(TARGET femtobench-ab)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
    set(FB_BIN_TO_PREFIX "${CMAKE_INSTALL_PREFIX}")
  else()
    file(RELATIVE_PATH FB_BIN_TO_PREFIX "/fbroot/${CMAKE_INSTALL_BINDIR}" "/fbroot")
    string(REGEX REPLACE "/$" "" FB_BIN_TO_PREFIX "${FB_BIN_TO_PREFIX}")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/tools/ab_git.sh
    ${PROJECT_BINARY_DIR}/install/femtobench-ab-git @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/install/femtobench-ab-git
    DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(EXISTS ${PROJECT_SOURCE_DIR}/LICENSE)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
