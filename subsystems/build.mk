# subsystems/build.mk - every directory under subsystems/ with C sources is one program.
PROGRAMS := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard subsystems/*/*.c)))))
# libraries a program links besides librm (the top Makefile builds them)
PROGRAM_LIBS_web := $(B)/liblwip.a

HOST_TESTS += subsystems/web/test/http_test.c
HOST_TEST_DEPS_http_test := subsystems/web/http.c

HOST_TESTS += subsystems/web/test/status_test.c
HOST_TEST_DEPS_status_test := subsystems/web/status.c rm/toprow.c
