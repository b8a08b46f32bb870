# eval/build.mk - evaluation experiments.
