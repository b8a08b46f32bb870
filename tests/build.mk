# tests/build.mk - the test runner; host tests are declared next to the code they test
# (HOST_TESTS += dir/test/x_test.c, HOST_TEST_DEPS_x_test := the pure sources it links).
