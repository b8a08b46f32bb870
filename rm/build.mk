# rm/build.mk - the runtime and resource managers linked into every user program.
RM_SRCS := $(wildcard rm/*.c) $(wildcard rm/*.S)
