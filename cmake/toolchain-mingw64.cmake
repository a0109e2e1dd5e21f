# Cross-build for Windows x86-64 with mingw-w64 (Debian: gcc-mingw-w64-x86-64).
# The programs run under wine (docs/platforms.md):
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(FB_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "mingw-w64 tool prefix")
set(CMAKE_C_COMPILER ${FB_MINGW_PREFIX}-gcc)
# C++ (the C++ tests) only with the cross g++; without it the build is C
# only, never with the host's c++ (which CMake would otherwise pick).
find_program(FB_CROSS_CXX ${FB_MINGW_PREFIX}-g++)
if(FB_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${FB_CROSS_CXX})
else()
  set(CMAKE_CXX_COMPILER CMAKE_CXX_COMPILER-NOTFOUND)
endif()
set(CMAKE_RC_COMPILER ${FB_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${FB_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Tests run through wine; wine finds no mingw runtime DLLs unless they are
# linked in, so link libgcc and winpthread statically.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_CROSSCOMPILING_EMULATOR wine CACHE STRING "how the build runs a Windows program")
