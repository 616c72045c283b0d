# 32-bit Raspberry Pi OS (armhf, hard float) with Debian's g++-arm-linux-gnueabihf.
# Tests run under qemu-arm (QEMU_CPU=cortex-a7 is a Pi 2, cortex-a53 not available in
# qemu-arm 7.2's 32-bit list; a Pi 3/4 in 32-bit mode runs the same code).
#
# Code is armv7-a with VFPv3-D16 (Debian's armhf baseline, which every Pi 2/3/4/5 runs);
# only the NEON kernels (EDGEMT_ARM_NEON=ON, the default) get -mfpu=neon-vfpv4, in their
# own object library, and run only when the CPU reports HWCAP_NEON.
#
# ARMv6 (Pi 1, Zero, Zero W): -DEDGEMT_ARM_NEON=OFF and
# -DEDGEMT_ARM_FLAGS="-march=armv6+fp -marm -mfpu=vfp -mfloat-abi=hard" (preset rpi-armv6)
# compile edgemt as ARMv6 code with scalar kernels only. The executables still link
# Debian's armhf crt1.o and libgcc.a, which are ARMv7 Thumb-2 code, so they do not run on
# an ARMv6 CPU: this is a compile and (under qemu's default CPU) test check of the
# scalar-only build; on a Pi 1/Zero, build natively (docs/raspberry-pi.md).
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(EDGEMT_CROSS_TRIPLE arm-linux-gnueabihf)
set(EDGEMT_CROSS_QEMU qemu-arm)
set(EDGEMT_ARM_FLAGS "-march=armv7-a+fp -mfpu=vfpv3-d16 -mfloat-abi=hard" CACHE STRING
    "Target CPU flags for every 32-bit ARM translation unit")
set(CMAKE_C_FLAGS_INIT "${EDGEMT_ARM_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${EDGEMT_ARM_FLAGS}")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EDGEMT_ARM_FLAGS)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
