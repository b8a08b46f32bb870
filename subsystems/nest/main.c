/*
 * nest - an intermediate level of a nested tree: a generic subsystem that builds what its
 * descriptor names and schedules it (the chain images of MANIFEST repeat it).
 */
#include "rm/runtime.h"
#include "rm/subsys.h"

int
hr_main(void)
{
	subsys_main();
}
