# tests/build.mk - host unit tests (each lists the pure sources it links).
HOST_TESTS :=
