# policies/build.mk - scheduling policies and admission tests (pure; also built for host tests).
POLICY_SRCS := $(wildcard policies/*.c)
