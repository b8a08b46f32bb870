# subsystems/build.mk - every directory under subsystems/ with C sources is one program.
PROGRAMS := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard subsystems/*/*.c)))))
