# Cross-build for Linux aarch64 (Debian: gcc-aarch64-linux-gnu). The programs
# run under qemu-user (docs/platforms.md):
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(FB_AARCH64_PREFIX aarch64-linux-gnu CACHE STRING "cross tool prefix")
set(CMAKE_C_COMPILER ${FB_AARCH64_PREFIX}-gcc)
# C++ (the C++ tests) only with the cross g++; without it the build is C
# only, never with the host's c++ (which CMake would otherwise pick).
find_program(FB_CROSS_CXX ${FB_AARCH64_PREFIX}-g++)
if(FB_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${FB_CROSS_CXX})
else()
  set(CMAKE_CXX_COMPILER CMAKE_CXX_COMPILER-NOTFOUND)
endif()
set(CMAKE_FIND_ROOT_PATH /usr/${FB_AARCH64_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/${FB_AARCH64_PREFIX} CACHE STRING
  "how the build runs an aarch64 program")
