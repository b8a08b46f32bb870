# policies/build.mk - scheduling policies and admission tests (pure; also built for host tests).
POLICY_SRCS := $(wildcard policies/*.c)

# host tests (make build/htest/<name> && build/htest/<name>)
HOST_TESTS += policies/test/fprr_test.c policies/test/ds_test.c policies/test/edf_test.c \
	policies/test/fig6_test.c policies/test/policy_test.c policies/test/admit_test.c \
	policies/test/kinds_test.c policies/test/server_test.c policies/test/runq_test.c
POLICY_CORE := policies/policy.c policies/base.c policies/runq.c policies/server.c \
	policies/fprr.c policies/ds.c policies/edf.c policies/admit.c
HOST_TEST_DEPS_fprr_test := $(POLICY_CORE)
HOST_TEST_DEPS_ds_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_edf_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_fig6_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_policy_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_admit_test := policies/admit.c
HOST_TEST_DEPS_kinds_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_server_test := $(POLICY_CORE) policies/test/sim.c
HOST_TEST_DEPS_runq_test := $(POLICY_CORE)
