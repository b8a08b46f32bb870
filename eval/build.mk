# eval/build.mk - the evaluation (eval/README.md): the Linux counterpart of the benchmarks
# and its initramfs.  The recipes, `make eval` and `make eval-quick` are in the top Makefile.
LBENCH_SRC := eval/linux/lbench.c
LBENCH := $(B)/eval/linux/lbench
LBENCH_CPIO := $(B)/eval/linux/lbench.cpio
# the server comparison runs the real policies on the host (eval/servers.sh)
SERVERS_SRC := eval/servers/servers.c $(POLICY_CORE)
SERVERS_BIN := $(B)/eval/servers
