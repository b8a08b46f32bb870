# rm/build.mk - the runtime and resource managers linked into every user program.
RM_SRCS := $(wildcard rm/*.c) $(wildcard rm/*.S) $(LIB_SRCS)

HOST_TESTS += rm/test/res_test.c
HOST_TEST_DEPS_res_test := rm/res.c policies/admit.c

HOST_TESTS += rm/test/restart_test.c
HOST_TEST_DEPS_restart_test := rm/restart.c

HOST_TESTS += rm/test/desc_test.c
HOST_TEST_DEPS_desc_test := rm/desc.c policies/admit.c
HOST_TEST_LIBS_desc_test := -lfdt

# the scheduler's decisions under a fake CPU (POLICY_CORE: policies/build.mk, included later)
HOST_TESTS += rm/test/schedcore_test.c
HOST_TEST_DEPS_schedcore_test = rm/schedcore.c rm/test/fakecpu.c $(POLICY_CORE)

HOST_TESTS += rm/test/child_test.c
HOST_TEST_DEPS_child_test := rm/child.c

HOST_TESTS += rm/test/sleepers_test.c
HOST_TEST_DEPS_sleepers_test := rm/sleepers.c

HOST_TESTS += rm/test/toprow_test.c
HOST_TEST_DEPS_toprow_test := rm/toprow.c
