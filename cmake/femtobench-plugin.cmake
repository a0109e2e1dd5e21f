# SPDX-License-Identifier: MIT
# femtobench_add_plugin(<target> <source>...): builds an FB_BENCHMARK suite
# (the same sources as its runner executable, FB_MAIN() included) as a
# plugin for femtobench-ab (docs/ab.md): a shared object (MODULE) with its
# own whole copy of the library, every reference bound inside it:
#   - the library is linked whole (--whole-archive), so the plugin entry
#     point and everything the suite may call are in it;
#   - -Wl,-Bsymbolic binds the plugin's calls to its own copy, whatever
#     else the process has loaded.
#
# femtobench_add_plugin(<target> [LAYOUTS <n>] <source>...) also builds n - 1
# layout variants (default LAYOUTS 8): <target>.layout1.so ... beside
# <target>.so, the same object files linked after a padding object that
# moves all code and static data by a different amount in each
# (femtobench-layout-pad.c). femtobench-ab finds them beside the file it is
# given and measures each side under every placement, so that a change in
# where the linker put a loop is not read as a change of the code (docs/ab.md,
# "Code layout"). They are built with `all` and by the target
# <target>_layouts; LAYOUTS 1 builds none. Needs CMake 3.21 (older: none).
#
# Included by the installed femtobench-config.cmake (with find_package) and
# by the top-level CMakeLists.txt (in-tree and as a subproject). Linux and
# other ELF platforms with GNU ld, gold, lld or mold.
include_guard(GLOBAL)

set(_femtobench_layout_pad "${CMAKE_CURRENT_LIST_DIR}/femtobench-layout-pad.c")

# The variants, at the end of the directory that made the plugin: by then
# its target_link_libraries and target_link_options calls have been made.
function(_femtobench_plugin_layouts target n pad)
  get_target_property(libs ${target} LINK_LIBRARIES)
  get_target_property(lopts ${target} LINK_OPTIONS)
  get_target_property(dir ${target} LIBRARY_OUTPUT_DIRECTORY)
  # the padding object in C, or as C++ in a project without C
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST langs)
    set_source_files_properties(${pad} PROPERTIES LANGUAGE CXX)
  endif()
  # linked as the plugin is: by the C++ driver when it has C++ sources (the
  # variants' only own source is the padding object)
  get_target_property(srcs ${target} SOURCES)
  set(link_lang "")
  foreach(src IN LISTS srcs)
    if(src MATCHES "\\.(cc|cpp|cxx|c\\+\\+|C)$")
      set(link_lang CXX)
    endif()
  endforeach()
  set(variants)
  math(EXPR last "${n} - 1")
  foreach(k RANGE 1 ${last})
    # code moved by 16..48 bytes within a 64-byte line and by a different
    # number of lines within a page; data by a different multiple of 16
    math(EXPR ptext "16 * (${k} % 4) + 64 * ((${k} * 23) % 64)")
    math(EXPR pdata "16 * ((${k} * 29) % 256)")
    set(v ${target}.layout${k})
    add_library(${v} MODULE ${pad} $<TARGET_OBJECTS:${target}>)
    set_target_properties(${v} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
    if(link_lang)
      set_target_properties(${v} PROPERTIES LINKER_LANGUAGE ${link_lang})
    endif()
    if(dir)
      set_target_properties(${v} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${dir}")
    endif()
    target_compile_definitions(${v} PRIVATE FB_LAYOUT_PAD_TEXT=${ptext} FB_LAYOUT_PAD_DATA=${pdata})
    if(libs)
      target_link_libraries(${v} PRIVATE ${libs})
    endif()
    if(lopts)
      target_link_options(${v} PRIVATE ${lopts})
    endif()
    list(APPEND variants ${v})
  endforeach()
  add_custom_target(${target}_layouts ALL)
  add_dependencies(${target}_layouts ${target} ${variants})
endfunction()

function(femtobench_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 FBP "" "LAYOUTS" "")
  set(srcs ${FBP_UNPARSED_ARGUMENTS})
  if(NOT srcs)
    message(FATAL_ERROR "femtobench_add_plugin(${target}): no source files")
  endif()
  if(NOT DEFINED FBP_LAYOUTS)
    set(FBP_LAYOUTS 8)
  endif()
  if(NOT FBP_LAYOUTS MATCHES "^[0-9]+$" OR FBP_LAYOUTS LESS 1 OR FBP_LAYOUTS GREATER 16)
    message(FATAL_ERROR "femtobench_add_plugin(${target}): LAYOUTS ${FBP_LAYOUTS}: not a "
                        "whole number from 1 to 16")
  endif()
  if(FBP_LAYOUTS GREATER 1 AND CMAKE_VERSION VERSION_LESS 3.21)
    message(STATUS "femtobench_add_plugin(${target}): CMake ${CMAKE_VERSION} builds no layout "
                   "variants (3.21 does): femtobench-ab cannot measure code placement")
    set(FBP_LAYOUTS 1)
  endif()
  if(TARGET femtobench::femtobench)
    set(fb_lib femtobench::femtobench)
  else()
    set(fb_lib femtobench)
  endif()
  add_library(${target} MODULE ${srcs})
  # "suite.so", not "libsuite.so": it is given by path, never found by name
  set_target_properties(${target} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  # the archive by path, between the flags, then the target for its usage
  # requirements (not $<LINK_LIBRARY:WHOLE_ARCHIVE>: CMake refuses it when
  # the suite also links femtobench plainly, as femtobench::benchmark does)
  target_link_libraries(${target} PRIVATE
    -Wl,--whole-archive $<TARGET_FILE:${fb_lib}> -Wl,--no-whole-archive ${fb_lib})
  target_link_options(${target} PRIVATE "LINKER:-Bsymbolic")
  # g++ makes a C++ inline function's static locals STB_GNU_UNIQUE: the
  # loader shares one across every plugin loaded, whatever RTLD_LOCAL and
  # -Bsymbolic say, so two plugins would share, say, a registry
  target_compile_options(${target} PRIVATE
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fno-gnu-unique>)
  # variants beyond LAYOUTS, left by an earlier build with more, are other
  # code: femtobench-ab would take them as this plugin's
  set(stale)
  foreach(k RANGE ${FBP_LAYOUTS} 15)
    list(APPEND stale "$<TARGET_FILE_DIR:${target}>/${target}.layout${k}.so")
  endforeach()
  add_custom_command(TARGET ${target} POST_BUILD COMMAND ${CMAKE_COMMAND} -E remove -f ${stale})
  if(FBP_LAYOUTS GREATER 1)
    # a deferred call's arguments are read when it runs: pass the values
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _femtobench_plugin_layouts [[${target}]] \
${FBP_LAYOUTS} [[${_femtobench_layout_pad}]])")
  endif()
endfunction()
