/*
 * hrtop.h - a live view of a subsystem's subtree: one line per subsystem, task and
 * component, indented by depth, with its policy, reservation, CPU share over the last
 * interval and since boot, deadline misses and memory held/bound (rows and lines:
 * toprow.h).
 *
 * What a subsystem measures itself (the kernel's accounting in its scheduler region, its
 * scheduler's miss counts, its reservation book, mem_info on its children) covers its own
 * tasks and children.  Grandchildren it knows only from its children's reports: while a
 * parent looks (pcb top_want), each subsystem publishes its subtree's rows in the page it
 * shares with its parent every HRTOP_PUBLISH_MS, from its event thread (hrtop_turn), and
 * asks its own children to do the same; the parent copies, checks and labels them as
 * claims.  Nothing stops: no one waits for anyone, and an idle tree publishes nothing.
 */
#ifndef RM_HRTOP_H
#define RM_HRTOP_H

#include <stdint.h>
#include "toprow.h"

#define HRTOP_PUBLISH_MS 250 /* how often a subsystem that is asked publishes its subtree */
#define HRTOP_ROWS_MAX	 64  /* rows one view shows: ours and our children's, their claims */

struct hrtop_opts {
	unsigned seconds;     /* how long to show it (0: for ever) */
	unsigned interval_ms; /* between two frames (0: 1000) */
};
/* Frames are plain lines, one frame after another, each beginning with a form feed: when
 * the console is a terminal (images/run.sh tells the kernel) and we are the root, the
 * kernel turns it into "clear the screen", so the frame redraws in place; otherwise it is
 * dropped (the root) or shown as '?' (anyone else: one line, one writer, and no component
 * moves the cursor over another's lines; kernel/console.h). */

/*
 * Our subtree now: rows[0] is ourselves (what all our threads and children were charged),
 * then each task and child, a child subsystem followed by the rows it reported (claims):
 * how many rows (at most max).  Asks our children to report from now on; until their
 * first report (HRTOP_PUBLISH_MS) they have no rows below them.  From a task of ours.
 */
unsigned hrtop_snapshot(struct toprow *rows, unsigned max);

/* Show our subtree every interval for o->seconds, from a task of ours (it sleeps between
 * frames through our scheduler), then stop asking our children to report and return. */
void hrtop_run(const struct hrtop_opts *o);

/* On our event thread's every turn (subsys.c): if our parent wants our rows, publish them
 * every HRTOP_PUBLISH_MS; if anyone wants them, ask our children.  Never blocks. */
void hrtop_turn(void);
/* The TSC at which hrtop_turn wants our next turn (UINT64_MAX: none). */
uint64_t hrtop_next(void);
/* Is anybody looking (a task of ours views, our parent asks, or we asked our children)?
 * Every turn of every scheduler asks this, inline: nobody looking costs a few loads.
 * parent_asks: our parent's top_want was 1 when it last told us something (subsys.c). */
extern volatile uint32_t hrtop_looking;
static inline int
hrtop_wanted(int parent_asks)
{
	return hrtop_looking || parent_asks;
}

/* What the kernel charged to all our threads and children, in TSC (rows[0].consumed). */
uint64_t hrtop_consumed_self(void);
/* The same for our own threads only, not our child subsystems'. */
uint64_t hrtop_consumed_own(void);
/* TSC since boot, by the kernel's clock (what BOOT% divides by). */
uint64_t hrtop_uptime(void);

/*
 * The network column: frames the kernel passed to and from the entity of row r (received
 * and sent, hr_net.h), for the rows whose counters we may read: ourselves and our own child
 * subsystems; -1 ("-") for the others (tasks share ours; deeper rows are a child's).
 */
long hrtop_net(const struct toprow *r);
/* The component row r stands for, as the kernel's calls name it: HR_CAP_SELF for row 0,
 * the slot of a child subsystem of ours; -1 for the others (tasks, deeper rows). */
long hrtop_row_comp(const struct toprow *r);

#endif
