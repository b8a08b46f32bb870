/*
 * crasher - faults while it is still being brought up: its parent must report it and
 * carry on with its siblings.
 */
#include "rm/runtime.h"

/* an address no component has mapped, hidden from the compiler's bounds checks */
static volatile uintptr_t nowhere = 0x10;

int
hr_main(void)
{
	*(volatile int *) nowhere = 1;
	return 0;
}
