/*
 * caps.h - this component's capability slots.  The kernel keeps the table; which slots
 * are free is ours to track.  Slot 0 means "self" and slot 1 holds the capability to our
 * parent's services (HR_CAP_PARENT).  We allocate slots 2 .. HR_CAP_FROM_PARENT-1; the
 * slots from HR_CAP_FROM_PARENT up are our parent's to fill (PI_CONNECT answers there).
 */
#ifndef RM_CAPS_H
#define RM_CAPS_H

#define HR_CAP_PARENT	   1
#define HR_CAP_FROM_PARENT 64

/* A free slot, or HR_ENOMEM. */
long caps_alloc(void);
void caps_free(long slot);

#endif
