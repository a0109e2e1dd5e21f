# SPDX-License-Identifier: MIT
# femtobench_add_plugin(<target> <source>...): builds an FB_BENCHMARK suite
# (the same sources as its runner executable, FB_MAIN() included) as a
# plugin for femtobench-ab (docs/ab.md): a shared object (MODULE) with its
# own whole copy of the library, every reference bound inside it:
#   - the library is linked whole (--whole-archive), so the plugin entry
#     point and everything the suite may call are in it;
#   - -Wl,-Bsymbolic binds the plugin's calls to its own copy, whatever
#     else the process has loaded.
# Included by the installed femtobench-config.cmake (with find_package) and
# by the top-level CMakeLists.txt (in-tree and as a subproject). Linux and
# other ELF platforms with GNU ld, gold, lld or mold.
include_guard(GLOBAL)

function(femtobench_add_plugin target)
  if(NOT ARGN)
    message(FATAL_ERROR "femtobench_add_plugin(${target}): no source files")
  endif()
  if(TARGET femtobench::femtobench)
    set(fb_lib femtobench::femtobench)
  else()
    set(fb_lib femtobench)
  endif()
  add_library(${target} MODULE ${ARGN})
  # "suite.so", not "libsuite.so": it is given by path, never found by name
  set_target_properties(${target} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  if(CMAKE_VERSION VERSION_LESS 3.24)
    # no $<LINK_LIBRARY:WHOLE_ARCHIVE>: the archive by path, between the flags
    target_link_libraries(${target} PRIVATE
      -Wl,--whole-archive $<TARGET_FILE:${fb_lib}> -Wl,--no-whole-archive ${fb_lib})
  else()
    target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${fb_lib}>")
  endif()
  target_link_options(${target} PRIVATE "LINKER:-Bsymbolic")
endfunction()
