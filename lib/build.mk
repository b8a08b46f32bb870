# lib/build.mk - pure code shared across layers (lib/README.md): compiled into the kernel,
# the user runtime and the image builder alike, each with its own flags.
LIB_SRCS := $(wildcard lib/*.c)

HOST_TESTS += lib/test/elf_test.c
HOST_TEST_DEPS_elf_test := lib/elf.c
