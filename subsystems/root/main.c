/*
 * root - the root subsystem: the first module the kernel loads.  It holds every resource
 * and runs the generic subsystem: it builds the tree the boot descriptor describes.
 */
#include "rm/subsys.h"
#include "rm/runtime.h"

int
hr_main(void)
{
	subsys_main();
}
