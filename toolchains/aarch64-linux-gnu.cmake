# 64-bit Raspberry Pi OS (Pi 3, 4, 5, Zero 2 W; Debian 12 arm64 userland) with Debian's
# g++-aarch64-linux-gnu. Tests run under qemu-aarch64 (QEMU_CPU=cortex-a72 is a Pi 4,
# cortex-a76 a Pi 5, cortex-a53 a Pi 3 / Zero 2).
#   cmake --preset rpi-arm64     or     cmake -S . -B build/x -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake
# No -march here: armv8-a is the baseline of every 64-bit Pi; the int8 dot-product kernels
# get +dotprod in their own object library (ops/CMakeLists.txt) and run only when the CPU
# reports HWCAP_ASIMDDP (Pi 5).
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(EDGEMT_CROSS_TRIPLE aarch64-linux-gnu)
set(EDGEMT_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
