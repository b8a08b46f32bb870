# eval/build.mk - the evaluation (eval/README.md): the Linux counterpart of the benchmarks
# and its initramfs.  The recipes, `make eval` and `make eval-quick` are in the top Makefile.
LBENCH_SRC := eval/linux/lbench.c
LBENCH := $(B)/eval/linux/lbench
LBENCH_CPIO := $(B)/eval/linux/lbench.cpio
