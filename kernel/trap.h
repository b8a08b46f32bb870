/*
 * trap.h - preemption points: where a long kernel path lets a pending interrupt in.
 *
 * The kernel runs with interrupts off and is never preempted (entry.S), so an interrupt
 * waits for the path it lands in.  A path whose length grows with the depth of the
 * scheduler tree (the idle walk, schedtree.c idle_up) opens a window between two of its
 * steps, where its state is consistent (trap_point): an interrupt pending then is taken,
 * only noted (trap.c trap_kernel), and the path has it handled there (trap_drain) before
 * it goes on or ends, so an interrupt waits for one step, not for the levels of the tree
 * (eval/walk.sh, docs/EVAL.md).  Only the idle loop enables interrupts elsewhere.
 */
#ifndef TRAP_H
#define TRAP_H

/* Let a pending interrupt in; nonzero if one came (here or at an earlier point) and waits
 * for trap_drain: the caller is to stop where it stands and drain. */
int trap_point(void);
/* Handle every interrupt a point let in, as if it had come now (trap_irq). */
void trap_drain(void);

#endif
