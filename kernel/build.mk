# kernel/build.mk - kernel sources.  lib/elf.c is shared: the kernel loads the root with it.
KERNEL_SRCS := $(wildcard kernel/*.c) $(wildcard kernel/arch/x86_64/*.c) lib/elf.c
KERNEL_ASMS := kernel/arch/x86_64/boot.S kernel/arch/x86_64/entry.S \
	kernel/arch/x86_64/fastpath.S
KERNEL_LDS := kernel/arch/x86_64/kernel.ld

HOST_TESTS += kernel/test/frange_test.c kernel/test/cap_test.c kernel/test/kev_test.c \
	kernel/test/console_test.c kernel/test/alias_test.c \
	kernel/test/schedtree_test.c kernel/test/packet_test.c \
	kernel/test/string_test.c
HOST_TEST_DEPS_frange_test := kernel/frange.c
HOST_TEST_DEPS_cap_test := kernel/cap.c
HOST_TEST_DEPS_kev_test := kernel/kev.c
HOST_TEST_DEPS_packet_test := kernel/packet.c
HOST_TEST_DEPS_console_test := kernel/console.c
HOST_TEST_DEPS_alias_test := kernel/alias.c
HOST_TEST_DEPS_schedtree_test := kernel/schedtree.c kernel/kev.c
# the kernel has no floating point, and some of its functions keep every register
# (no_caller_saved_registers, for the assembly that calls them), which GCC refuses where
# SSE may be used: the host tests compile its sources as the kernel build does
$(B)/h/kernel/%.c.o: HCFLAGS += -mgeneral-regs-only
