# Shared part of the Debian cross toolchain files (aarch64-linux-gnu.cmake,
# arm-linux-gnueabihf.cmake); they set EDGEMT_CROSS_TRIPLE, CMAKE_SYSTEM_PROCESSOR and
# EDGEMT_CROSS_QEMU, then include this file. Not a toolchain file by itself.
#
# Where the target's files come from (scripts/setup --test installs all of them):
#   /usr/<triple>/            Debian's cross libc/libstdc++ (pulled by g++-<triple>) and
#                             sentencepiece, converted with dpkg-cross (libsentencepiece0
#                             and -dev are not Multi-Arch: same in Debian 12, so their
#                             :arm64/:armhf packages cannot be installed beside the host's)
#   /usr/lib/<triple>/        multiarch packages: libgtest-dev:<arch>, libxsimd-dev:<arch>
#   /usr/include, /usr/share  arch-independent headers and CMake configs (FlatBuffers,
#                             nlohmann_json); flatc is the host's (it only generates code)
if(NOT EDGEMT_CROSS_TRIPLE)
  message(FATAL_ERROR "include toolchains/aarch64-linux-gnu.cmake or arm-linux-gnueabihf.cmake, not debian-cross.cmake")
endif()
set(_t ${EDGEMT_CROSS_TRIPLE})

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${_t}-gcc)
set(CMAKE_CXX_COMPILER ${_t}-g++)
# find_library/find_package look in lib/<triple> (multiarch), never in the host's lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE ${_t})

# "/" is a root too because multiarch target libraries live under /usr/lib/<triple>.
set(CMAKE_FIND_ROOT_PATH /usr/${_t} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # flatc and qemu run on the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config sees only the target's .pc files (sentencepiece.pc from dpkg-cross is in
# /usr/<triple>/lib/pkgconfig with prefix=/usr/<triple>).
set(ENV{PKG_CONFIG_LIBDIR} "/usr/${_t}/lib/pkgconfig:/usr/lib/${_t}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# ctest (and gtest_discover_tests, add_test on targets) run target binaries through
# qemu-user; -L is the sysroot for the dynamic loader and the libraries in /usr/<triple>/lib.
# The CPU model comes from the environment (QEMU_CPU=cortex-a72, ...), default "max".
find_program(EDGEMT_QEMU ${EDGEMT_CROSS_QEMU} PATHS /usr/bin NO_CMAKE_FIND_ROOT_PATH)
if(EDGEMT_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${EDGEMT_QEMU} -L /usr/${_t})
else()
  message(WARNING "${EDGEMT_CROSS_QEMU} not found (apt-get install qemu-user): cross-built tests cannot run")
endif()
unset(_t)
