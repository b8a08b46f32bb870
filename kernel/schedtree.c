/*
 * schedtree.c - the scheduler tree.
 *
 * A scheduler is a component its parent promoted.  It owns a region shared with the
 * kernel (abi/hr_sched.h), sees the threads granted to it and its descendants, and has one
 * event thread that the kernel wakes for timer ticks and kernel events.
 *
 * Accounting.  Every level i of the running thread's chain has an open slot, the one its
 * scheduler charges: the thread itself at its owner's level, else the c^s of the child
 * subsystem on its path (the HiRES rule: a parent sees a child as one thread).
 * schedtree_opened(i) (schedtree.h) is when level i's slot was opened.  A switch
 * closes and opens only the levels at which the outgoing and incoming threads are charged
 * differently, so a switch inside one subsystem touches one level whatever its depth.  A
 * parent reads its children's totals only when it runs, by which time their slots have
 * been closed, and caught up if they fell behind (behind, below).  Time the kernel spends
 * on a subsystem's frames is charged to that subsystem instead (schedtree_charge).
 */
#include "schedtree.h"
#include "syscall.h"
#include "comp.h"
#include "thd.h"
#include "boot.h"
#include "kev.h"
#include "ptq.h"
#include "trace.h"
#include "trap.h"

struct region_page {
	struct hr_sched_region r;
} __attribute__((aligned(4096)));

static struct region_page regions[HR_COMP_MAX];
struct schedtree_acct schedtree_acct = { .open_mask = 1 };
const uint32_t schedtree_upto[HR_DEPTH_MAX + 1] = {
	0x1,   0x3,   0x7,   0xf,    0x1f,   0x3f,   0x7f,   0xff,    0x1ff,
	0x3ff, 0x7ff, 0xfff, 0x1fff, 0x3fff, 0x7fff, 0xffff, 0x1ffff,
};
_Static_assert(HR_DEPTH_MAX == 16, "schedtree_upto: one entry a level");
static uint64_t tsc_hz, tick_tsc;
static struct hr_kinfo kinfo __attribute__((aligned(4096)));
static uint64_t next_due = UINT64_MAX; /* no scheduler's timer is due before this */
/* the schedulers whose timer is armed: a tick looks at these only, however deep the tree */
static struct comp *armed;

void
schedtree_clock(uint64_t hz, uint64_t per_tick)
{
	tsc_hz = hz;
	tick_tsc = per_tick;
	kinfo.tsc_hz = hz;
	kinfo.tick_tsc = per_tick;
}

long
schedtree_map_kinfo(uint64_t pgtbl, struct pt_budget *b)
{
	uint64_t *e = pt_entry(pgtbl, HR_VA_KINFO, b);

	if (!e)
		return HR_ENOMEM;
	pt_map(pgtbl, HR_VA_KINFO, e, pt_make(hw_virt_to_phys(&kinfo), HR_MEM_READ));
	*pt_shadow(e) = 0; /* a kernel mapping: not aliasable, not removable */
	return 0;
}

uint32_t
schedtree_rep(const struct thd *t, int level)
{
	const struct thd *cs;

	if (level == t->depth)
		return t->id;
	cs = t->chain[level + 1]->cs;
	return cs ? cs->id : 0;
}

static struct hr_slot *
slot_of(const struct thd *t, int level)
{
	return &t->chain[level]->region->slot[schedtree_rep(t, level)];
}

void
schedtree_publish(const struct thd *t)
{
	const struct comp *owner = t->chain[t->depth];

	if (!owner || !owner->is_sched)
		return;
	schedtree_publish_to(t, owner);
	if (t->state == HR_TS_BLOCKED && t->blocker < t->depth)
		t->chain[t->blocker]->region->slot[t->id].state = HR_TS_BLOCKED;
}

/* The first depth at which the paths of a and b differ: HR_DEPTH_MAX + 1 if none does
 * (a is b; a shallower one differs from a descendant just below its own depth). */
static inline __attribute__((always_inline)) int
path_parts(const struct comp *a, const struct comp *b)
{
	uint64_t x;

	if ((x = a->path[0] ^ b->path[0]))
		return 1 + __builtin_ctzll(x) / 8;
	if ((x = a->path[1] ^ b->path[1]))
		return 9 + __builtin_ctzll(x) / 8;
	return HR_DEPTH_MAX + 1;
}

/*
 * The first level at which a and b are charged differently (HR_DEPTH_MAX + 1 or more: at
 * none, a is b).  Their chains are their owners' paths from the root, so they part at the
 * first depth where the owners' paths differ (j); the level above it charges each for
 * the child it is in (or itself), which differ but for two children without a c^s, or a
 * thread that is the c^s of the other's subsystem (revoked to its parent): then j.  No
 * walk over the levels, so a dispatch costs the same at any depth.  What that level
 * charges each for (schedtree_rep) comes back in *ra and *rb: preempts compares them.
 */
static inline __attribute__((always_inline)) int
parting(const struct thd *a, const struct thd *b, uint32_t *ra, uint32_t *rb)
{
	int m = MIN(a->depth, b->depth), j;

	j = MIN(path_parts(a->chain[a->depth], b->chain[b->depth]), m + 1);
	*ra = schedtree_rep(a, j - 1);
	*rb = schedtree_rep(b, j - 1);
	if (*ra != *rb)
		return j - 1;
	if (j <= m) { /* seldom: what they are charged for at the level returned */
		*ra = schedtree_rep(a, j);
		*rb = schedtree_rep(b, j);
	}
	return j;
}

/* parting for the accounting, which needs the level only; a call, as it was: inlined, it
 * made the accounting longer (the timer figure 4 instructions more, the irq 7) */
static __attribute__((noinline)) int
diverge(const struct thd *a, const struct thd *b)
{
	uint32_t ra, rb;
	int k = parting(a, b, &ra, &rb);

	/* what close_levels reads after the call is read after it, not held across it in
	 * registers schedtree_account would save on every dispatch (the timer figure: 4) */
	__asm__ volatile("" ::: "memory");
	return k;
}

void
schedtree_path(struct comp *c, const struct comp *parent)
{
	_Static_assert(HR_COMP_MAX <= 256 && HR_DEPTH_MAX == 16, "a path is 16 one-byte ids");
	c->path[0] = parent ? parent->path[0] : 0;
	c->path[1] = parent ? parent->path[1] : 0;
	if (c->depth)
		c->path[(c->depth - 1) / 8] |= (uint64_t) c->id << 8 * ((c->depth - 1) % 8);
}

/* Charges not yet passed up to the owners' ancestors: an ancestor reads what it sees of a
 * child only when it runs, which takes a dispatch, and every dispatch passes them on first
 * (schedtree_owed_pay, below the records it uses); so the interrupt path itself never
 * walks the tree. */
#define OWED_MAX 8
static struct {
	struct comp *s;
	uint64_t tsc;
} owed[OWED_MAX];

struct hr_slot schedtree_nobody;

/* What each ancestor of s sees of it (the c^s on the path) grows by tsc; where a c^s has
 * been freed, whose id may be another thread's by now, schedtree_nobody does instead. */
static void
charge_up(struct comp *s, uint64_t tsc)
{
	for (struct comp *c = s; c->parent; c = c->parent)
		c->up_slot->consumed += tsc;
}

void
schedtree_charge(struct comp *s, uint64_t tsc)
{
	schedtree_acct.stolen += tsc;
	if (!s->is_sched) /* demoted, its ring kept: the subsystem it is part of now pays */
		s = s->sub;
	if (s->evt) /* its own view at once: its event thread may look before any dispatch */
		s->region->slot[s->evt->id].consumed += tsc;
	if (schedtree_acct.nowed && owed[schedtree_acct.nowed - 1].s == s)
		owed[schedtree_acct.nowed - 1].tsc += tsc;
	else if (schedtree_acct.nowed < OWED_MAX)
		owed[schedtree_acct.nowed++] = (typeof(owed[0])){ s, tsc };
	else
		charge_up(s, tsc);
}

/* the scheduler whose ancestors may still be told that their child on its path woke
 * (schedtree_woke_tell), at the depths of schedtree_acct.woke_mask; meaningless when no
 * bit is set (calm_again leaves it, so that the same scheduler waking again writes the
 * mask only) */
static struct comp *woke_from;
/* the scheduler whose event thread woke without the CPU, its wake still to run past the
 * schedulers above it that idle with it (schedtree_wake_through, schedtree_acct.through) */
static struct comp *woke_child;

/* The last idle that reached the top (idle_up: the CPU idled, every scheduler above
 * calm.from idling with its child on calm.from's path, calm.top the root), the earliest
 * alone_until that walk read (until; below: but the top's), and dirty: bit j, the
 * scheduler at depth j may have decided anew since, which no mask shows (the top idled
 * alone: its own turns).  news_mask: bit j, a scheduler at depth j has been told
 * something since (notice, schedtree_post).  With them, calm.from idling again when
 * nothing else has happened idles the CPU without the walk (calm_again), and when some
 * schedulers above may have changed, the walk starts at the deepest of them (calm_below). */
static struct {
	struct comp *from, *top;
	uint64_t until, below;
	uint32_t dirty;
} calm;
static uint32_t news_mask;

/* The ancestor of w (or w itself) at depth d >= 1: its id is in w's path. */
static struct comp *
path_at(const struct comp *w, unsigned d)
{
	return &comps[w->path[(d - 1) / 8] >> 8 * ((d - 1) % 8) & 0xff];
}

/* Where an activated event thread and the thread it preempts part (preempts found it), for
 * the dispatch that follows at once (schedtree_activate): its accounting does not look
 * again.  Taken by that dispatch, whatever it is: nothing can change the chains between. */
static struct parted {
	const struct thd *from, *to;
	int k;
} parted;

/*
 * Bumped whenever a scheduler is given news (evt_pending): a wake-up told quietly (the
 * parent could not run now), a kernel event, a timer; the scheduler keeps the new value
 * (news_at).  The thread an activation preempted is resumed past the schedulers between
 * it and the activated one, without their turns, only while none of them has been told
 * anything since (past_quiet): each would decide on it again; otherwise the first of them
 * told something takes its turn, past the ones above it.  One comparison when
 * nothing was told to anyone; otherwise a look at each of those schedulers' news_at.  The
 * activation's own news comes before its record, and the notice that a scheduler woke
 * when it got the CPU (wake_up_as) does not count: that one's turn runs now, and its
 * parent's belief is moot once it idles.
 */
static uint32_t news_gen;

/* s has news its event thread reads when it next looks. */
static inline __attribute__((always_inline)) void
news_for(struct comp *s)
{
	s->evt_pending = 1;
	s->news_at = ++news_gen;
}

/*
 * STEP(a[i]) for i = n - 1 down to 0 (1 <= n <= HR_DEPTH_MAX): a loop over the levels of
 * a thread's chain a, unrolled (a loop costs twice as much), a table entered at the n-th
 * from the end whose cases fall through.
 */
/* a table, aligned by hand */
/* clang-format off */
#define CHAIN_AT(a, i, STEP) STEP((a)[i]); __attribute__((fallthrough))
#define FOR_CHAIN(a, n, STEP)                                                   \
	do {                                                                    \
		_Static_assert(HR_DEPTH_MAX == 16, "FOR_CHAIN: a case a depth"); \
		switch (n) {                                                    \
		default: __builtin_unreachable();                               \
		case 16: CHAIN_AT(a, 15, STEP); case 15: CHAIN_AT(a, 14, STEP); \
		case 14: CHAIN_AT(a, 13, STEP); case 13: CHAIN_AT(a, 12, STEP); \
		case 12: CHAIN_AT(a, 11, STEP); case 11: CHAIN_AT(a, 10, STEP); \
		case 10: CHAIN_AT(a, 9, STEP);  case 9:  CHAIN_AT(a, 8, STEP);  \
		case 8:  CHAIN_AT(a, 7, STEP);  case 7:  CHAIN_AT(a, 6, STEP);  \
		case 6:  CHAIN_AT(a, 5, STEP);  case 5:  CHAIN_AT(a, 4, STEP);  \
		case 4:  CHAIN_AT(a, 3, STEP);  case 3:  CHAIN_AT(a, 2, STEP);  \
		case 2:  CHAIN_AT(a, 1, STEP);  case 1:  STEP((a)[0]);          \
		}                                                               \
	} while (0)
/* clang-format on */

/* Mark the components of chain[0 .. n-1] behind for record bit: 2 instructions a level. */
static void
mark_behind(struct comp *const *chain, long n, uint8_t bit)
{
#define MARK(c) (c)->behind |= bit
	FOR_CHAIN(chain, n, MARK);
#undef MARK
}

/*
 * Levels k + 1 .. depth of thread t that closed together and are not yet in their slots:
 * each level's slot above t's own (its child's up_slot on t's path) is owed spent, and t's
 * own slot, at its owner's level, is owed own (the same, unless t's own level reopened
 * since: a switch inside its subsystem).  A shallow event thread preempting a thread deep
 * down closes all its levels, and preempts it again each time it wakes: level k (which
 * the activated scheduler reads) is written at once, the levels below only when a thread
 * is about to run where they can be read, in the components of schedulers
 * chain[k + 1 .. depth], each marked with the record's bit (schedtree_catch_up_in:
 * thd_space in C, and the fast paths, test the mark of the component a thread enters).
 * t's own level waits too when t was preempted (it is READY): its owner takes no turn
 * before t resumes unless news reaches it, and the close from sixteen levels up then costs
 * what one from two does (preempt, docs/EVAL.md).  When t waits for something, its owner
 * is likely the next to run and would only catch it up: t's own is written at once (upto
 * is depth - 1).  A region is mapped in its scheduler's component alone and cannot be
 * aliased (schedtree_make), so only a thread running there reads it.  Until then each
 * close of t from k adds to spent and own: two adds, not a write a level.
 *
 * BEHIND_MAX records at once, so that threads preempted in turn (two servers deep in two
 * branches, both preempted by the root's real-time tasks) each keep theirs; a component
 * bears a bit for each record that marked it, and a thread about to run there catches up
 * only its own level of those records, not the others' levels nor the levels between
 * (schedtree_catch_up_in): a deep scheduler that takes a turn between two of the root's
 * preemptions (its timer) then costs one level each way, not a write and a mark a level.
 * With every record taken, a close catches one up in turn and takes it: image walktwo-d15
 * (two subsystems that tick side by side at depth 16, five threads there preempted in
 * turn) does so every few hundred ticks, its root timer's max 35% above depth 1's.  Eight
 * records kept all five and cut that max by 700 instructions, but cost its median 80 and
 * its p99 190 at every tick (a thread entering a component pays its level of each record
 * that marked it), so there are four.  Writes of other
 * closes to the same slots (t's own level closing alone, the fast switch, another
 * record's catch-up) add to them meanwhile, which sums commute with.  Nothing else can
 * change what the levels are owed meanwhile: every change to a chain, an up_slot or a
 * region catches every record up first (schedtree_make and _unmake, grant, revoke,
 * demote, thd_free).  The kernel itself never reads a slot's consumed.
 */
#define BEHIND_MAX SCHEDTREE_BEHIND_MAX
_Static_assert(BEHIND_MAX <= 8 * sizeof(((struct comp *) 0)->behind), "a bit a record");
/* set in a record's k while some of its levels were caught up alone (caught) and are not
 * marked again: the plain test of record 0 fails, and the branch beside it marks them */
#define BEHIND_STALE 0x100
static struct behind {
	const struct thd *t; /* none: NULL */
	int k, upto; /* levels k + 1 .. upto: t's depth, or depth - 1 when its own was written */
	uint64_t spent, own; /* own: its own level's, when upto is its depth */
	uint32_t caught;     /* bit j: level j caught up alone since the last close */
	uint32_t paid_set;   /* bit j: paid[j] holds what level j took of its sum */
	uint64_t paid[HR_DEPTH_MAX + 1];
} behind[BEHIND_MAX];
static uint8_t behind_used;   /* bit r: behind[r] is taken */
static unsigned behind_evict; /* the record the next close to find every record taken takes */

/* t's own slot, at its owner's level, takes spent. */
static void
close_own(const struct thd *t, uint64_t spent)
{
	const struct comp *owner = t->chain[t->depth];

	if (owner && owner->is_sched)
		owner->region->slot[t->id].consumed += spent;
}

/* Level j of record b, bit r (the region of b's thread's chain[j]), takes what it is owed:
 * its sum less what it took when last paid; that component is no longer marked for b. */
static void
pay_level(struct behind *b, unsigned r, int j)
{
	const struct thd *t = b->t;
	uint64_t sum = j == t->depth ? b->own : b->spent;
	uint64_t due = sum - (b->paid_set >> j & 1 ? b->paid[j] : 0);

	if (j == t->depth)
		close_own(t, due);
	else
		t->chain[j + 1]->up_slot->consumed += due;
	b->paid[j] = sum;
	b->paid_set |= 1u << j;
	t->chain[j]->behind &= (uint8_t) ~(1u << r);
}

/* Record r's levels to their slots, its marks cleared, and the record free. */
static void
catch_up_record(unsigned r)
{
	struct behind *b = &behind[r];
	int k = b->k & ~BEHIND_STALE, upto = b->upto;

	/* a level paid alone since the last close is owed nothing: paying it adds 0 */
	for (int j = k + 1; j <= upto; j++)
		pay_level(b, r, j);
	b->t = 0;
	behind_used &= (uint8_t) ~(1u << r);
}

void
schedtree_catch_up(void)
{
	for (unsigned m = behind_used; m; m &= m - 1)
		catch_up_record((unsigned) __builtin_ctz(m));
}

/*
 * A thread is about to run in c: c's region takes what each record that marked it owes
 * it, one level of each, and c is unmarked; the record keeps its other levels, and
 * remembers c's (caught), which its next close from above marks again.  So a deep scheduler
 * woken again and again (its timer) while the root preempts the thread it runs costs a
 * level each way, not the levels between.  A mark whose record is free would be a kernel
 * bug: it is left, and syscall_dispatch says so (schedtree_behind_bug), where paying a free
 * record would dereference nothing.
 */
void
schedtree_catch_up_in(const struct comp *c)
{
	int j = c->depth;

	for (unsigned m = c->behind & behind_used; m; m &= m - 1) {
		unsigned r = (unsigned) __builtin_ctz(m);
		struct behind *b = &behind[r];
		pay_level(b, r, j); /* c is b's chain[j]: it marked it */
		b->caught |= 1u << j;
		b->k |= BEHIND_STALE;
	}
}

void
schedtree_behind_bug(const struct thd *t)
{
	static int said;

	if (said)
		return;
	said = 1;
	kprintf("[k] BUG: thread %u runs in component %u, whose levels are behind\n", t->id,
		t->comp->id);
}

/* record r takes from's levels k + 1 .. upto, their components marked with its bit */
static inline __attribute__((always_inline)) void
take_record(unsigned r, const struct thd *from, int k, int upto, uint64_t spent, uint64_t own)
{
	struct behind *b = &behind[r];

	mark_behind(&from->chain[k + 1], upto - k, (uint8_t) (1u << r));
	b->t = from;
	b->k = k;
	b->upto = upto;
	b->caught = 0;
	b->spent = spent;
	b->own = own;
	b->paid_set = 0;
	behind_used |= (uint8_t) (1u << r);
}

/* Record b (bit r) takes another close of its thread from its k: two adds, and the levels
 * caught up alone since are marked again, as they are owed again. */
static inline __attribute__((always_inline)) void
add_to_record(struct behind *b, unsigned r, uint64_t spent, uint64_t own)
{
	b->spent += spent;
	b->own += own;
	for (uint32_t m = b->caught; m; m &= m - 1)
		b->t->chain[__builtin_ctz(m)]->behind |= (uint8_t) (1u << r);
	b->caught = 0;
	b->k &= ~BEHIND_STALE;
}

/* Record b (bit r), of its thread's levels down to the one above its own, takes its own
 * level too (a close of it preempted, after closes of it waiting or frame charges): marked,
 * and owed what the record's own sum gets from here on, which is all of it (0 until now:
 * every add to a record without the own level adds 0 to it).  So a thread that waits and
 * is preempted by turns keeps one record, not two that evict each other's levels
 * (eval/walk.sh). */
static void
own_level_joins(struct behind *b, unsigned r)
{
	b->t->chain[b->t->depth]->behind |= (uint8_t) (1u << r);
	b->upto = b->t->depth;
}

/* t's levels k + 1 .. upto take spent (own, t's own level, when upto is its depth): into
 * the record that holds them (two adds, and the levels caught up alone since marked
 * again; t's own level joins a record of the others), a free one, or, with every record
 * taken, one caught up and taken in turn (behind_evict) if evict, so that records of
 * threads long gone from there do not hold them all.  0 if no record took them (every one
 * taken, and not evict). */
static inline __attribute__((always_inline)) int
behind_add(const struct thd *t, int k, int upto, uint64_t spent, uint64_t own, int evict)
{
	unsigned r;

	for (unsigned m = behind_used; m; m &= m - 1) {
		struct behind *b = &behind[__builtin_ctz(m)];
		/* upto is t's depth or the one above (its own written at once) */
		if (b->t == t && (b->k & ~BEHIND_STALE) == k) {
			if (b->upto < upto)
				own_level_joins(b, (unsigned) __builtin_ctz(m));
			add_to_record(b, (unsigned) __builtin_ctz(m), spent, own);
			return 1;
		}
	}
	r = (unsigned) __builtin_ctz(~(unsigned) behind_used);
	if (r >= BEHIND_MAX) {
		if (!evict)
			return 0;
		r = behind_evict;
		behind_evict = (behind_evict + 1) % BEHIND_MAX;
		catch_up_record(r);
	}
	take_record(r, t, k, upto, spent, own);
	return 1;
}

/* fall_behind when some record is taken */
static __attribute__((noinline)) void
fall_behind_beside(const struct thd *from, int k, int upto, uint64_t spent, uint64_t own)
{
	behind_add(from, k, upto, spent, own, 1);
}

/*
 * What the schedulers between the root and s see of their child on s's path (levels 1 ..
 * depth - 1 of s's event thread e, whose own level s saw at once: schedtree_charge) into a
 * record of e's from level 0, the one it has or a free one: two adds a frame once its
 * levels are marked, where charge_up writes a level each (3 instructions a level), as a
 * subsystem deep down that receives frame after frame pays.  Level 0, the root's view, at
 * once.  0 (nothing done) for s at depth 1, an event thread not s's own, or every record
 * another's: a charge does not evict one.  Called while paying what is owed, at a dispatch:
 * the thread dispatched then catches up the component it runs in if this marked it
 * (thd_space; the fast switch, which tested the mark before, schedtree_owed_pay_into).
 */
static int
charge_behind(struct comp *s, uint64_t tsc)
{
	const struct thd *e = s->evt;

	if (s->depth < 2 || !e || e->depth != s->depth || e->chain[e->depth] != s ||
	    !behind_add(e, 0, s->depth - 1, tsc, 0, 0))
		return 0;
	e->chain[1]->up_slot->consumed += tsc;
	return 1;
}

void
schedtree_owed_pay(void)
{
	for (unsigned i = 0; i < schedtree_acct.nowed; i++)
		if (owed[i].s && !charge_behind(owed[i].s, owed[i].tsc))
			charge_up(owed[i].s, owed[i].tsc);
	schedtree_acct.nowed = 0;
}

void
schedtree_owed_pay_into(const struct comp *c)
{
	schedtree_owed_pay();
	if (c->behind)
		schedtree_catch_up_in(c);
}

/* close_together_below when record 0 is not from's from k: another record that is (two
 * adds), a free one its levels fall behind into (marked, 2 instructions a level, once for
 * as long as the record lives), or, every record taken, one caught up in turn.  Inline,
 * as the one record was: a call here cost the first close at depth 16 (preempt's maximum)
 * 11. */
static inline __attribute__((always_inline)) void
fall_behind(const struct thd *from, int k, int upto, uint64_t spent, uint64_t own)
{
	if (behind_used)
		fall_behind_beside(from, k, upto, spent, own);
	else /* nothing behind, as a first close finds: record 0, its bit a constant */
		take_record(0, from, k, upto, spent, own);
}

/* from's levels k .. upto closed together (upto > k), each taking spent but its own level
 * own: level k at once, the ones below into a record behind: two adds when it is record
 * 0's, the one a thread preempted again and again keeps, and the levels paid alone since
 * marked again when some were; else fall_behind. */
static inline __attribute__((always_inline)) void
close_together_below(const struct thd *from, int k, int upto, uint64_t spent, uint64_t own)
{
	from->chain[k + 1]->up_slot->consumed += spent;
	if (behind[0].t == from && behind[0].k == k && behind[0].upto == upto) {
		behind[0].spent += spent;
		behind[0].own += own;
	} else if (behind[0].t == from && behind[0].k == (k | BEHIND_STALE) &&
		   behind[0].upto == upto) {
		add_to_record(&behind[0], 0, spent, own); /* a level caught up since: inline too */
	} else {
		fall_behind(from, k, upto, spent, own);
	}
}

/*
 * close_levels (below) for a thread that waits and whose levels from k to the one above its
 * own (d - k >= 2) closed together, or for levels that opened apart: a call, seldom made,
 * that keeps its registers out of the common cases.  Levels that opened apart: the ones
 * from k down to the first that opened since (j) opened together, as the first dispatch
 * opened them; all of them down to the one above its own fall behind with that time, as if
 * they had closed together, and each from j down is written at once with what it did not
 * take (the time before it opened), 14 instructions a level.  Before, each level was
 * written: a thread at depth D + 1 that its scheduler dispatched in a turn of its own
 * (walktwo-dD: its sibling idled first) closed D levels at every tick.
 */
static __attribute__((noinline)) void
close_levels_else(const struct thd *from, int k, uint64_t now, int top, uint64_t spent,
		  uint64_t own)
{
	uint32_t open = schedtree_acct.open_mask;
	uint64_t at;
	int j;

	close_own(from, own);
	if (top <= k) {
		/* its owner may well be the next to run, and would only catch its level up */
		close_together_below(from, k, from->depth - 1, spent, 0);
		return;
	}
	j = __builtin_ctz(open & ~schedtree_upto[k]); /* the first above k opened since: top is */
	if (j - k >= 2) {
		at = schedtree_acct.since[schedtree_opening_in(open, k)];
		close_together_below(from, k, from->depth - 1, now - at, 0);
		/* a slot may read less than it took until the record is paid, which is before
		 * anything reads it (a thread entering that component catches it up first) */
		for (long i = from->depth - 1; i >= j; i--) /* what they did not take */
			from->chain[i + 1]->up_slot->consumed -=
				schedtree_acct.since[schedtree_opening_in(open, (int) i)] - at;
		return;
	}
	for (long i = from->depth - 1; i >= k; i--) /* schedtree_opened(i) */
		from->chain[i + 1]->up_slot->consumed +=
			now - schedtree_acct.since[schedtree_opening_in(open, (int) i)];
}

static void woke_tell(const struct thd *x); /* a wake's notice, before a thread runs */

/*
 * from stops running at levels k .. from->depth: each slot it was charged at takes the time
 * since that level opened.  Its own level is its own slot; above it, level i's slot is
 * what the scheduler at depth i sees of its child on from's path, that child's up_slot.
 * When the levels from k down to the one above from's own opened together, as one
 * dispatch opens them (and a parent resumes a deep thread in one, schedtree_through), they
 * all take the same time: level k's slot takes it at once, the ones below (and from's own,
 * if it was preempted) fall behind (close_together_below: two adds when from fell behind
 * from k already), or, when every record behind is another's, into one caught up in turn
 * (fall_behind_beside).  A single level crossed (d - k == 1) is written at once: two
 * adds, where falling behind would mark a component that a catch-up soon unmarks (the
 * irq figure: 14 more).
 * Otherwise each below the first that opened apart looks its opening up: 14 a level
 * (schedtree_opened's and, bsr and load, no branch but the loop's), the case left that
 * grows with depth (docs/EVAL.md, eval/preempt.sh), and only with the levels that opened
 * apart (close_levels_else).  No test of the chain: a thread's chain has a scheduler at every
 * level down to its depth (revoke and demote cut it short and leave no hole; a scheduler
 * is destroyed after the threads granted to it), and up_slot is never NULL
 * (schedtree_nobody).
 */

static void
close_levels(const struct thd *from, int k, uint64_t now)
{
	uint32_t open = schedtree_acct.open_mask;
	long d = from->depth;
	int top;
	uint64_t spent, own;

	if (k > d)
		return;
	top = schedtree_opening_in(open, (int) d);
	spent = own = now - schedtree_acct.since[top];
	if (k == d) { /* a switch inside its subsystem */
		close_own(from, own);
		return;
	}
	if (top > k) { /* its own level reopens at every switch inside it: those above? */
		top = schedtree_opening_in(open, (int) d - 1);
		spent = now - schedtree_acct.since[top];
	}
	if (d - k == 1) { /* one level: no table */
		close_own(from, own);
		from->chain[d]->up_slot->consumed += spent;
	} else if (top <= k && from->state == HR_TS_READY) { /* preempted from above */
		close_together_below(from, k, (int) d, spent, own);
	} else {
		close_levels_else(from, k, now, top, spent, own);
	}
}

void
schedtree_account(struct thd *from, struct thd *to, int level)
{
	uint64_t now;
	int k;

	(void) level; /* the caller's, for the trace: where they part is found here */
	if (schedtree_acct.nowed)
		schedtree_owed_pay();
	now = hw_tsc() - schedtree_acct.stolen;
	if (!from || !to) {
		k = 0;
	} else if (from == parted.from && to == parted.to) {
		k = parted.k;
		parted.from = 0;
	} else {
		k = diverge(from, to);
	}
	if (from)
		close_levels(from, k, now);
	if (!to)
		return;
	/* a scheduler at to's depth may run now: what it is to be told first */
	if (__builtin_expect(schedtree_acct.woke_mask >> to->depth & 1, 0))
		woke_tell(to);
	schedtree_open(k, now); /* levels k .. to->depth: one stamp, whatever the depth */
}

long
schedtree_make(struct comp *c, struct comp *parent, struct thd *cs)
{
	struct hr_sched_region *r = &regions[c->id].r;
	uint64_t pa = hw_virt_to_phys(r);
	struct pt_budget b = ptq_budget(c);

	/* the region's pages share one leaf table: what the first needs is all they need, so
	 * nothing is allocated unless all of it can be */
	_Static_assert(HR_VA_SCHED % (512 * HR_PAGE_SIZE) + HR_SCHED_REGION_PAGES * HR_PAGE_SIZE <=
			       512 * HR_PAGE_SIZE,
		       "the scheduler region sits in one leaf table");
	if (pt_missing(c->pgtbl, HR_VA_SCHED) > b.left)
		return HR_ENOMEM;
	schedtree_catch_up(); /* cs's chain changes */
	for (uint64_t i = 0; i < HR_SCHED_REGION_PAGES; i++) {
		uint64_t va = HR_VA_SCHED + i * HR_PAGE_SIZE;
		uint64_t *e = pt_entry(c->pgtbl, va, &b);
		pt_map(c->pgtbl, va, e, pt_make(pa + i * HR_PAGE_SIZE, HR_MEM_READ | HR_MEM_WRITE));
		*pt_shadow(e) = 0; /* a kernel mapping: no alias node, cannot be aliased */
	}
	ptq_charge(c, b.made);
	memset(r, 0, sizeof(*r));
	c->is_sched = 1;
	c->sub = c;
	c->depth = parent ? (uint8_t) (parent->depth + 1) : 0;
	c->depth_bit = 1u << c->depth;
	schedtree_path(c, parent);
	c->held = 0;
	c->held_path = parent ? parent->held_path : 0;
	c->region = r;
	c->cs = cs;
	c->up_slot = parent && cs ? &parent->region->slot[cs->id] : &schedtree_nobody;
	c->woke_word = parent ? kev_woke_word(parent->region, c->id) : 0;
	c->woke_bit = kev_woke_bit(c->id);
	c->evt = 0;
	c->pevt = 0;
	c->evt_pending = 0;
	c->evq = (struct kev_q){ 0 };
	c->notice = (struct kev_notice){ 0 };
	r->depth = c->depth;
	r->tsc_hz = tsc_hz;
	r->tick_tsc = tick_tsc;
	if (cs) {
		cs->chain[c->depth] = c;
		cs->depth = c->depth;
		if (parent) /* the parent sees it now as the child's c^s, no longer its own */
			parent->region->slot[cs->id].flags = HR_SLOT_CS;
		schedtree_publish(cs);
	}
	return 0;
}

/* Kept on the armed list exactly while armed.  Armed again for the same time, nothing
 * changes (next_due is never later than an armed timer): a scheduler that passes its
 * timer on every switch pays only the comparison. */
void
schedtree_timer(struct comp *s, uint64_t at)
{
	if (at == s->wake_at)
		return;
	if (s->wake_at && !at) {
		if (s->armed_prev)
			s->armed_prev->armed_next = s->armed_next;
		else
			armed = s->armed_next;
		if (s->armed_next)
			s->armed_next->armed_prev = s->armed_prev;
		s->armed_next = s->armed_prev = 0;
	} else if (!s->wake_at && at) {
		s->armed_prev = 0;
		s->armed_next = armed;
		if (armed)
			armed->armed_prev = s;
		armed = s;
	}
	s->wake_at = at;
	if (at && at < next_due) {
		next_due = at;
		hw_deadline_set(at);
	}
}

void
schedtree_unmake(struct comp *c)
{
	/* its region goes: nothing owed to it may be passed up through it now (its subtree
	 * was unmade first, so nothing below it is owed either) */
	schedtree_catch_up(); /* its region goes, and the up_slots into it */
	for (unsigned i = 0; i < schedtree_acct.nowed; i++)
		if (owed[i].s == c)
			owed[i].s = 0;
	if (woke_from == c)
		woke_from = 0, schedtree_acct.woke_mask = 0;
	calm.from = 0; /* the tree changed: walk once more */
	if (woke_child == c)
		woke_child = 0, schedtree_acct.through = 0;
	schedtree_timer(c, 0);
	for (uint64_t i = 0; i < HR_SCHED_REGION_PAGES; i++)
		ptq_refund(c, pt_unmap(c->pgtbl, HR_VA_SCHED + i * HR_PAGE_SIZE));
	c->is_sched = 0;
	c->region = 0;
	c->up_slot = &schedtree_nobody;
	c->evt = 0; /* a scheduler's alone */
}

/* Do the schedulers at levels from .. e->depth-1 all let e's side run (none holds the
 * child on e's path, as a server out of budget is held: sys_sched_hold)?  One test of the
 * owner's held_path, whatever the depth: the published priorities are the schedulers' to
 * change at any time, so reading them would take a walk over the levels. */
static int
may_run(const struct thd *e, int from)
{
	return !(e->chain[e->depth]->held_path >> (from + 1));
}

/* May event thread e run instead of t (NULL: the CPU is idle)?  It must outrank t where
 * their schedulers' choices first differ, and no scheduler below that may hold it back. */
static inline __attribute__((always_inline)) int
preempts(const struct thd *e, const struct thd *t, int *kp)
{
	int k;
	uint32_t re, rt;
	struct hr_slot *sl;

	if (!t)
		return may_run(e, 0);
	k = *kp = parting(e, t, &re, &rt); /* and what each is charged for there */
	if (k > e->depth || k > t->depth)
		return 0; /* charged alike at every level: e is t */
	sl = e->chain[k]->region->slot;
	return sl[re].prio < sl[rt].prio && may_run(e, k + 1);
}

/* schedtree_activate, inline for wake_up_as: returns whether s's event thread runs now. */
static inline __attribute__((always_inline)) int
activate(struct comp *s)
{
	struct thd *e = s->evt;
	int k = 0, runs = 0;

	if (!e)
		return 0;
	if (e->state != HR_TS_EVWAIT)
		return e == cur;
	e->state = HR_TS_READY;
	if (e->chain[e->depth] == s) /* its own, as it usually is: no owner to look up */
		schedtree_publish_to(e, s);
	else
		schedtree_publish(e);
	if (thd_prepare(e)) {
		thd_free(e);
		return 0;
	}
	if (preempts(e, cur, &k)) {
		/* Preempting nothing (the thread that ran ended, or the CPU idled), it keeps
		 * the record of an activation before, if its turns since left it: nothing
		 * below has had a turn since but by news, which past_quiet looks at. */
		if (cur) {
			e->preempted = cur;
			e->preempted_gen = cur->gen;
			e->preempted_news = news_gen;
			parted = (struct parted){ cur, e, k };
		}
		thd_dispatch(e, 0);
		runs = 1;
	}
	/* Nothing is pending that its turn will not read: cleared last, as the dispatch
	 * above may have told s notices that waited for it (schedtree_woke_tell), which
	 * would otherwise make it take a second turn for news its first one read. */
	s->evt_pending = 0;
	return runs;
}

void
schedtree_activate(struct comp *s)
{
	activate(s);
}

/* Queue ev for s without waking its event thread: it sees it when it next looks. */
static void
queue(struct comp *s, struct hr_kevent ev)
{
	trace_kev_put(&s->evq, s->region, ev);
	news_for(s);
}

/*
 * What a notice is to the parent told (notice_as).  TOLD_NEWS: news (news_for).
 * TOLD_RUNS: something to read, but not news against a thread resumed past it (c woke and
 * its event thread runs: news_gen's reason).  TOLD_MOOT: neither, read at its next turn:
 * it idles with c, and c idled (idle_up), which its turn would only find.  As news, that
 * notice made every scheduler the walk passed take a turn when its parent next came back
 * down the path (schedtree_through and past_quiet pass no scheduler with news): in
 * walk-d16, a cascade of fifteen turns on every tick whose deep work the root's timer
 * preempted (eval/walk.sh).
 */
enum told { TOLD_NEWS, TOLD_RUNS, TOLD_MOOT };

/* Tell c's parent what c's scheduler is doing now (HR_KEV_IDLE, HR_KEV_WAKE), replacing
 * what it was told before and has not read yet (kev.h): never more than two entries.
 * Inline, so that a wake-up, on the path from an interrupt or a timer to the woken event
 * thread at depth >= 1, is a store (woke_word, woke_bit) and no call. */
static inline __attribute__((always_inline)) void
notice_as(struct comp *c, uint16_t type, int traced, enum told how)
{
	struct comp *p = c->parent;

	if (type == HR_KEV_WAKE && !traced)
		*c->woke_word |= c->woke_bit; /* kev_notice's store, worked out at promotion */
	else
		trace_kev_notice(&p->evq, p->region, &c->notice, type, c->id);
	if (how == TOLD_RUNS)
		p->evt_pending = 1;
	else if (how == TOLD_NEWS)
		news_for(p);
	if (how != TOLD_MOOT) /* the walk's own is what calm's picture holds of p */
		news_mask |= p->depth_bit;
	/* what p will believe of c once it reads its ring (a lost notice makes p resync and
	 * wake every child: rm/subsys.c on_lost) */
	c->notice.idle = type == HR_KEV_IDLE;
	if (c == woke_from && c->notice.idle)
		woke_from = 0,
		schedtree_acct.woke_mask = 0; /* idled again: nothing of it to tell above */
}

static inline __attribute__((always_inline)) void
notice(struct comp *c, uint16_t type)
{
	notice_as(c, type, trace_on, TOLD_NEWS);
}

void
schedtree_post(struct comp *s, struct hr_kevent ev)
{
	if (!s || !s->is_sched)
		return;
	queue(s, ev);
	/* news as a notice is (calm_again): no wake-up tells its parent */
	news_mask |= s->depth_bit;
	trace_activate(s); /* schedtree_activate, traced or not */
}

/*
 * Whether or not a woken scheduler's parent p runs now, p has work again (a runnable child).
 * If p had idled, its own parent was told HR_KEV_IDLE and sees p blocked; p's event thread
 * did not run, so nothing else would tell it p woke, and it would never dispatch p again
 * (nor anything below p: a thread there that a more urgent sibling of p preempted stays
 * READY for ever once that sibling ends; web-depth-d2, image test-wake-depth).  So each
 * ancestor told it idled is told it woke, up to the first whose parent already sees it
 * runnable: one notice per level that idled (its HR_KEV_IDLE paid for it).  A parent reads
 * its ring only when its event thread runs, which takes the dispatch of a thread of its own,
 * at its depth: each notice waits for that (schedtree_account, fastpath.S), one per
 * dispatch (schedtree_woke_tell).  So
 * the path from an interrupt to the woken thread stays the same at any depth (the timer
 * and irq figures), and no dispatch walks the levels either: a root woken by its own timer
 * hears of its child only, and the levels between, if it dispatches down to them, each as
 * it is reached.  Should p idle again first, what is left is moot (its HR_KEV_IDLE is the
 * truth again, notice).
 */
static void
woke_tell_at(unsigned depth)
{
	struct comp *a = woke_from;
	unsigned d = depth + 1;

	schedtree_acct.woke_mask &= ~(1u << depth);
	if (!schedtree_acct.woke_mask)
		woke_from = 0;
	if (!a || d > a->depth)
		return;
	a = path_at(a, d);
	if (a->notice.idle && a->parent && a->parent->is_sched)
		notice(a, HR_KEV_WAKE);
}

/* x, a thread at a depth whose bit is set, is about to run: its scheduler hears what it is
 * to be told if it is the one on the wake's path.  A scheduler beside the path at that
 * depth is not, and the notice waits for the path's own: told to it when a sibling's thread
 * ran, it gave the path's scheduler news, which its parent, coming back to it with a
 * thread below to resume, does not pass, so every level took a turn down to that thread
 * (eval/walk-side.sh: a subsystem at depth 1 beside the levels, fifteen turns a tick). */
static void
woke_tell(const struct thd *x)
{
	unsigned j = x->depth;

	if (j && woke_from && j < woke_from->depth && x->chain[j] != path_at(woke_from, j))
		return;
	woke_tell_at(j);
}

/* woke_tell for the fast switch, which keeps every register (24 instructions of saving);
 * the kernel's C calls woke_tell itself and saves only what it uses: it is on the path
 * from a timer to a root's event thread that preempts a deep one (walkside-d16's probe,
 * whose max it made 17 less). */
void
schedtree_woke_tell(const struct thd *x)
{
	woke_tell(x);
}

/* Tell whatever is left to tell (a new woke_from takes over): one notice per depth. */
static void
woke_tell_all(void)
{
	while (schedtree_acct.woke_mask)
		woke_tell_at((unsigned) __builtin_ctz(schedtree_acct.woke_mask));
}

/* p's ancestors that idled are to hear that it woke, each when a thread at its depth is
 * next dispatched (schedtree_woke_tell); look whether cur is one of their event threads if
 * asked (not when cur is the woken one, below p) */
static void
woke_later(struct comp *p, int look)
{
	if (woke_from != p) {
		woke_tell_all(); /* the last one's, if any is left */
		woke_from = p;
	}
	schedtree_acct.woke_mask = p->depth_bit - 1; /* every depth above p */
	/* one of those event threads runs now, and may decide before any switch: tell it now;
	 * any other thread there leaves the telling to the next dispatch (schedtree_account),
	 * off the path from the interrupt to the woken thread */
	if (look && cur && (schedtree_acct.woke_mask >> cur->depth & 1) && cur->home &&
	    cur->home->evt == cur)
		woke_tell(cur);
}

/* s woke without the CPU below p, which idled: p's ancestors are to hear of it
 * (woke_later), and the dispatch of a waiting c^s on the path may run s's event thread
 * past them (schedtree_wake_through).  Only below a parent that idled: a wake beside,
 * under a parent that is busy or the root (walkside's `side`, woken at the same tick), is
 * no wake to pass down to, and took the place of the deep one's (walkside-d5: a tick of
 * turns at every level, 14,488 instructions late). */
static void
woke_later_past(struct comp *s, struct comp *p)
{
	woke_later(p, 1);
	woke_child = s;
	schedtree_acct.through = (p->depth_bit << 1) - 2; /* depths 1 .. p's */
	schedtree_acct.through_path[0] = s->path[0];
	schedtree_acct.through_path[1] = s->path[1];
}

/*
 * Is it news to p that its child s woke?  Not to a parent that decided knowing s runnable:
 * it will not hear that s idled (!s->notice.idle), and it has nothing unread
 * (!evt_pending: its turn, begun or to come, read every notice before, and a notice since
 * would have set it).  Its wake of s would change nothing (rm/schedcore.c), and the
 * notice, news, would only cost it a turn before the thread it runs below can resume
 * (past_quiet: the preempt figure's maximum at depth 16).  One with something unread is
 * told: it may have decided while s idled, and this news makes it decide again rather
 * than be resumed past (image test-wake-parked: a leaf whose event thread resumed its
 * parent's thread when its task slept told nobody that it idled).  Both bytes are read and
 * or-ed, one branch, the same cost whichever holds: tested in turn, the first tested cost
 * the other's figure 2 (evt_pending first, the busy timer's; since the walk's notices are
 * no news, the irq figure's parent has none, and notice.idle first cost the busy timer).
 */
static inline __attribute__((always_inline)) int
wake_is_news(const struct comp *s, const struct comp *p)
{
	return (p->evt_pending | s->notice.idle) != 0;
}

/*
 * s has something to do (its timer is due, a frame arrived).  Its event thread runs at
 * once if the published priorities say it outranks what runs now, whatever its depth: no
 * scheduler in between is involved.  Its parent, if that is news to it (wake_is_news), is
 * told that s woke (HR_KEV_WAKE), quietly if s got the CPU; if s did not, the parent is
 * woken too, so that someone who may run s decides about it now.
 */
static inline __attribute__((always_inline)) void
wake_up_as(struct comp *s, int traced)
{
	struct comp *p;
	int k;

	/* a scheduler's parent is one (sched_promote asks it of the promoter, and a demotion
	 * or a destruction takes the children first): no test of is_sched */
	while (traced ? (trace_activate(s), !(s->evt && cur == s->evt)) : !activate(s)) {
		if (!(p = s->parent))
			return;
		if (wake_is_news(s, p))
			notice_as(s, HR_KEV_WAKE, traced, TOLD_NEWS);
		/* Nor is the parent woken when it would not choose s over what runs now (s's
		 * c^s does not outrank it where they differ): it reads the notice when it next
		 * runs.  Otherwise a child that sleeps a microsecond at a time would run its
		 * parent's scheduler that often, on the time of the parent's reservations. */
		if (cur && s->cs && !preempts(s->cs, cur, &k)) {
			if (p->notice.idle)
				woke_later_past(s, p);
			return;
		}
		s = p;
	}
	/* s's event thread got the CPU (what the figures measure): its parent is told quietly */
	if (!(p = s->parent))
		return;
	if (wake_is_news(s, p))
		notice_as(s, HR_KEV_WAKE, traced, TOLD_RUNS);
	if (p->notice.idle)
		woke_later(p, 0); /* cur is below: nothing to tell now */
}

void
schedtree_wake_up(struct comp *s)
{
	wake_up_as(s, 0);
}

void
schedtree_wake_up_traced(struct comp *s)
{
	wake_up_as(s, 1);
}

static void
timer_fire(struct comp *s)
{
	schedtree_timer(s, 0);
	news_for(s);	  /* its event thread looks at its clock: no entry needed */
	trace_wake_up(s); /* schedtree_wake_up, traced or not */
}

void
schedtree_notify(struct comp *s, struct hr_kevent ev)
{
	if (!s->is_sched)
		return; /* demoted while it kept its ring and ports: its region is gone */
	queue(s, ev);
	trace_wake_up(s); /* schedtree_wake_up, traced or not */
}

/* Fire every armed timer that is due and set the deadline for the earliest of the rest. */
static void
fire_due(uint64_t now)
{
	uint64_t next = UINT64_MAX;

	if (now < next_due)
		return;
	for (struct comp *s = armed, *n; s; s = n) {
		n = s->armed_next; /* firing takes s off the list */
		if (s->wake_at <= now)
			timer_fire(s);
		else
			next = MIN(next, s->wake_at);
	}
	next_due = next;
	hw_deadline_set(next == UINT64_MAX ? 0 : next);
}

void
schedtree_tick(void)
{
	uint64_t now = hw_tsc();

	kinfo.ticks++;
	kinfo.tick_at = now;
	fire_due(now);
}

void
schedtree_deadline(void)
{
	uint64_t now = hw_tsc();

	if (now < next_due && next_due != UINT64_MAX)
		hw_deadline_set(next_due); /* early by the conversion's rounding: once more */
	fire_due(now);
}

/* Has p news it has not read, besides notices about its child c?  Anything else for p
 * (a kernel event, its timer) woke its event thread, so only notices can wait unread in
 * its ring, at most two about each child (kev.h), and in its woke bits. */
static int
news_besides(const struct comp *p, const struct comp *c)
{
	const struct hr_sched_region *r = p->region;
	unsigned n = 0;

	for (uint32_t i = r->ev_tail; i != r->ev_head; i++) { /* ev_tail is p's: at most 3 */
		const struct hr_kevent *e = &r->ev[i % HR_KEV_RING];
		if (++n > 2 || e->comp != c->id ||
		    (e->type != HR_KEV_IDLE && e->type != HR_KEV_WAKE))
			return 1;
	}
	for (unsigned w = 0; w < HR_COMP_MAX / 64; w++)
		if (r->woke[w] & ~(&r->woke[w] == c->woke_word ? c->woke_bit : 0))
			return 1;
	return 0;
}

/* Is the thread that event thread e's activation preempted still there to resume? */
static int
preempted_ready(const struct thd *e)
{
	const struct thd *p = e->preempted;

	return p && p->gen == e->preempted_gen && p->state == HR_TS_READY;
}

/* The depth of the first scheduler on p's path from depth `from` down to its own that has
 * been told something since news_gen was stamp; p->depth + 1 if none has.  Looked at only
 * when news_gen has moved since: a load and a compare a level, where each level it passes
 * spares a scheduler's turn (about a thousand instructions). */
static int
first_told(const struct thd *p, int from, uint32_t stamp)
{
	int i = from;

	while (i <= p->depth && (int32_t) (p->chain[i]->news_at - stamp) <= 0)
		i++;
	return i;
}

/*
 * Where t's activation's preempted thread p, still there (the caller looked:
 * preempted_ready), goes on past the schedulers on its path from depth `from` down, none of
 * which holds its child on p's path, without their turns.  If none has been told anything
 * since the activation, each would choose p again: p.  Otherwise the first that has, s
 * below `from`, takes its turn: its event thread (s's c^s, as its parent would dispatch it)
 * runs, with p as its record, as if its news had activated it; each one above would only
 * dispatch its child on p's path again.  Before, every level from `from` took a turn, and
 * the levels opened apart (preempt-d16's maximum: a timer of the innermost scheduler that
 * fired while a thread of the root ran).  NULL: the scheduler at `from` takes its turn.
 */
static struct thd *
past_quiet(struct thd *t, int from)
{
	struct thd *p = t->preempted, *e;
	struct comp *s;
	int at, waited;

	if (!may_run(p, from))
		return 0;
	if (t->preempted_news == news_gen ||
	    (at = first_told(p, from, t->preempted_news)) > p->depth)
		return p;
	s = p->chain[at];
	e = s->evt;
	if (at == from || !e || e == p || s->cs != e || s->pevt)
		return 0;
	/* One woken that did not get the CPU is ready, its turn not begun.  One that holds a
	 * record of another thread (it may be in its turn, preempted) keeps it, and is not
	 * passed to; a record of p is what it has kept since it last preempted p and then
	 * dispatched it (a switch leaves the record: activate). */
	waited = e->state == HR_TS_EVWAIT;
	if (!(waited || (e->state == HR_TS_READY && (!preempted_ready(e) || e->preempted == p))) ||
	    thd_prepare(e))
		return 0;
	if (waited) {
		e->state = HR_TS_READY;
		schedtree_publish(e);
		s->evt_pending = 0; /* its turn reads what it was told */
	}
	e->preempted = p;
	e->preempted_gen = p->gen;
	e->preempted_news = news_gen;
	return e;
}

static int idles_with(const struct comp *p, const struct comp *c, uint64_t now);

/* c has news, and it is only that its child on p's path woke (the notice of a wake that
 * got the CPU, TOLD_RUNS), which c, idling with that child, would read and dispatch it
 * again: passed as if it had none.  Otherwise the preempted thread's parent took a turn
 * whenever its own parent came back to it (walkside-d2: about 1,700 instructions). */
static int
told_only_of(const struct comp *c, const struct thd *p)
{
	return p->depth > c->depth && idles_with(c, p->chain[c->depth + 1], hw_tsc());
}

/*
 * Event thread t, of s, dispatches x, the c^s of s's child c, whose scheduler waits with
 * nothing to read (no news, no events of s's for it: the caller's PEVT is not set).  If
 * t's activation preempted a thread p below c that may resume past c and the schedulers
 * under it (past_quiet), each of their turns would only choose it again: p runs at once
 * instead, without them; if one of them below c has news, its event thread does.
 * Otherwise every level took a turn, a scheduler's whole loop each, whenever a parent came
 * back to a deep child after its own activation had preempted it (eval/preempt.sh).  The
 * record is the first such dispatch's, whichever child it is for, and one that asks for
 * the child's turn (turn) takes it too: that turn decides below, unstamped, and t keeps
 * its record across an activation that preempts nothing (activate).  Returns the thread
 * to dispatch: p, the event thread of a scheduler below c, or x.
 */
struct thd *
schedtree_through(struct thd *t, struct thd *x, uint64_t turn)
{
	struct comp *c = x->home;
	struct thd *p = t->preempted, *y;
	int past;

	past = !turn && preempted_ready(t) && c && c->is_sched && c->cs == x && c->evt == x &&
	       x->state == HR_TS_EVWAIT && !c->pevt && p->depth >= c->depth &&
	       p->chain[c->depth] == c && (!c->evt_pending || told_only_of(c, p));
	y = past ? past_quiet(t, c->depth) : 0;
	t->preempted = 0;
	if (!y)
		return x;
	if (y == p && thd_prepare(p)) {
		thd_free(p);
		return x;
	}
	return y;
}

/*
 * What event thread t of s, about to wait, resumes (NULL: nothing).  The thread p its
 * activation preempted, if still there, unless it is s's to schedule and s published that
 * it may not run (a server out of budget: it waits for s, not for the next event).  If
 * resuming p would pass schedulers that may have something to decide, the first of them
 * that has news, if the ones above it have none (past_quiet); if that is the first, not
 * p: below s, the c^s of s's child on p's path, whose scheduler decides; elsewhere
 * nothing, and the CPU goes back to an ancestor, whose turn dispatches down to p again.
 */
static struct thd *
resumption(struct thd *t, struct comp *s)
{
	struct thd *p = t->preempted, *x;
	int own;

	if (!preempted_ready(t))
		return 0;
	own = schedtree_sees(s, p);
	if (own && slot_of(p, s->depth)->prio == HR_PRIO_IDLE)
		return 0;
	/* s's own passes nobody.  Elsewhere the schedulers from where t and p part count:
	 * news to the one there (a wake-up t's side kept from running) may outrank p's side */
	if (p->chain[p->depth] == s)
		return p;
	if ((x = past_quiet(t, own ? s->depth + 1 : diverge(t, p))))
		return x;
	if (!own)
		return 0;
	x = p->chain[s->depth + 1]->cs;
	if (!x || (x->state != HR_TS_EVWAIT && x->state != HR_TS_READY))
		return p; /* no scheduler of its own to ask: as s would */
	if (x->state == HR_TS_EVWAIT) {
		x->state = HR_TS_READY;
		schedtree_publish(x);
	}
	return x;
}

/* Is p to hear, at its next turn, that a child of its other than c woke
 * (schedtree_woke_tell)?  A wake below an idle p that did not get the CPU waits for that:
 * it is news, as much as an entry in p's ring. */
static int
woke_untold_besides(const struct comp *p, const struct comp *c)
{
	unsigned d = p->depth + 1u;

	if (!woke_from || !(schedtree_acct.woke_mask >> p->depth & 1) || d > woke_from->depth)
		return 0;
	/* the bit is the depth's: it is p's if p is on woke_from's path */
	return (!p->depth || path_at(woke_from, p->depth) == p) && path_at(woke_from, d) != c;
}

/* Would parent p, told that its child c idled, find nothing else to run?  It said so in its
 * last turn (c's c^s slot: alone_until, abi/hr_sched.h), has not run since (its event
 * thread waits), has heard nothing else since (nor is to hear of another child's wake),
 * and its event thread's activation preempted no thread that it would resume
 * (sys_event_wait) on its way to idling. */
static int
idles_with(const struct comp *p, const struct comp *c, uint64_t now)
{
	return c->cs && p->evt && p->evt->state == HR_TS_EVWAIT &&
	       now < p->region->slot[c->cs->id].alone_until && !news_besides(p, c) &&
	       !woke_untold_besides(p, c) && !preempted_ready(p->evt);
}

/* Is s's parent p a scheduler below the top (calm_again, calm_below: a parent at the top is
 * one level of walk anyway) whose ancestors are the picture's: s is the picture's origin,
 * or p is on its path above it?  Then the levels above p are the picture's as much for s
 * as for the origin: of two subsystems side by side, the one that idles second when the
 * picture is the other's (they take turns being first: walktwo-dD).  The origin's own
 * test first, alone, as on every idle of a deep subsystem that ticks alone. */
static inline __attribute__((always_inline)) int
calm_of(const struct comp *s, const struct comp *p)
{
	return (s == calm.from && p && p->is_sched && p->parent) ||
	       (calm.from && s != calm.from && p && p->is_sched && p->parent &&
		p->depth < calm.from->depth && path_at(calm.from, p->depth) == p);
}

/* calm_again found s, beside the picture's origin, idling as it: the picture is s's, with
 * the word its parent said of it (calm.until and calm.below: the earliest). */
static void
calm_moves_to(struct comp *s)
{
	uint64_t w = s->parent->region->slot[s->cs->id].alone_until;

	calm.from = s;
	calm.until = MIN(calm.until, w);
	calm.below = MIN(calm.below, w);
}

/*
 * Does s idle again as it did when the CPU last idled, with nothing else since?  That is
 * the innermost scheduler of a subtree that sleeps and wakes alone (the timer and irq
 * figures at depth 16): it woke, got the CPU and idles, while the walk's 16 levels would
 * each find what they found then.  Its parent p still idles with it (idles_with); p's own
 * parent has still to hear that p woke (p->notice.idle) and every depth above p still
 * waits to be told (woke_from, woke_mask: no thread above has run since); no scheduler
 * above p has been told anything (news_mask: notices, kernel events; an activation by
 * wake-up that did not get the CPU shows as a notice to the woken one's parent, but at the
 * root, whose event thread is looked at); the root has not idled alone since, nor has a
 * scheduler above p been marked changed (calm.dirty: p's own mark, which a walk from beside
 * s sets, does not count, as p is looked at); and no word read then has lapsed
 * (calm.until).  Every scheduler above p is then as that walk left it, idle with its
 * child, believing p idle: true again.  s may also be another child of a scheduler on the
 * picture's path (calm_of), p looked at as ever: the picture is then s's (calm_moves_to),
 * and calm_below's walk from s makes it s's.
 */
static int
calm_again(const struct comp *s, uint64_t now)
{
	const struct comp *p = s->parent;
	uint32_t above;

	if (!calm_of(s, p) || now >= calm.until)
		return 0;
	above = p->depth_bit - 1;
	return !(calm.dirty & above) && woke_from == p && schedtree_acct.woke_mask == above &&
	       !(news_mask & above) && calm.top->evt && calm.top->evt->state == HR_TS_EVWAIT &&
	       p->notice.idle && idles_with(p, s, now);
}

/* The depths at which a scheduler may have decided anew since the picture, as far as the
 * masks show (calm_below's reasons): the top, always; calm.dirty; news_mask; a thread of
 * its own run since the wake.  The notice of a wake to its parent (news_mask << 1) is the
 * callers' to add: calm_passes looks at the first level itself. */
static inline __attribute__((always_inline)) uint32_t
calm_changed(void)
{
	return calm.dirty | calm.top->depth_bit | news_mask | ~schedtree_acct.woke_mask;
}
/*
 * calm_again when some schedulers above p may have changed since that walk: the root,
 * always (its turns and its timer show in no mask: a real-time task of the root's, run
 * between two idles of a deep subsystem, is eval/walk.sh's case), and any at depth j
 * told something since (news_mask bit j), or whose parent was (bit j - 1: the notice of
 * its own wake, as a frame or a timer for it shows in no mask), or at whose depth a thread
 * ran since s woke (a bit woke_mask lost).  Each scheduler below the deepest of them, j,
 * is as the walk left it, by calm_again's reasons depth by depth: the walk goes on from
 * the child at depth j + 1, past them, without writing again the notices they have not
 * read (p is looked at, and told, as always).  So the walk costs the levels that changed
 * and the ones above them, not the depth.  Their words are read together (calm.below:
 * every level's but the top's), so one that lapsed since sends the next idle the whole
 * way.  Returns the child at depth j + 1, *until the earliest word of the levels passed;
 * NULL for the whole walk.
 */
static struct comp *
calm_below(const struct comp *s, uint64_t now, uint64_t *until)
{
	const struct comp *p = s->parent;
	uint32_t above, dirty;
	int j;

	if (!calm_of(s, p) || now >= calm.below || woke_from != p || !p->notice.idle)
		return 0;
	above = p->depth_bit - 1;
	dirty = (calm_changed() | news_mask << 1) & above;
	j = 31 - __builtin_clz(dirty); /* above holds the top's bit: not 0 */
	if (j + 1 >= (int) p->depth || !idles_with(p, s, now))
		return 0;
	*until = MIN(calm.below, p->region->slot[s->cs->id].alone_until);
	return path_at(s, (unsigned) j + 1);
}

/* May schedulers c .. w's parent (w, s's parent, below them) be passed as the last walk
 * to the top left them (schedtree_wake_through)? */
static int
calm_passes(const struct comp *c, const struct comp *w, const struct comp *s, uint64_t now)
{
	uint32_t levels = (w->depth_bit - 1) & ~(c->depth_bit - 1); /* depths c .. w - 1 */

	return s == calm.from && woke_from == w && !c->evt_pending && now < calm.below &&
	       !(calm_changed() & levels) && !(news_mask << 1 & levels & ~c->depth_bit);
}

/*
 * x, the waiting event thread (and c^s) of scheduler c, is dispatched by c's parent, on the
 * path of a wake that did not get the CPU: s's event thread, ready, woke while a thread
 * its side does not outrank ran (woke_child, set then with schedtree_acct.through).  c's
 * turn would dispatch its child on that path, and so would each scheduler down to s's
 * parent w, if each idles with that child:
 *  - w, looked at (idles_with: it said s is all it has, and it has heard nothing else,
 *    its notice of the wake besides; it believes s runnable once it reads it);
 *  - each above it, from c, as the last walk to the top left it (calm.from is s, and
 *    since then no mask shows a change at their depths, calm_below's reasons: notices,
 *    kernel events, a thread of their own run since the wake; the notice to c's parent is
 *    about c, whose own event thread is looked at), no word read then lapsed.
 * Then s's event thread runs at once, as it would have had it outranked what ran when it
 * woke, and the levels between hear of the wake as threads of their own next run, as
 * then.  Otherwise every level took a turn, about a thousand instructions each, down to
 * it: a subsystem beside the deep one, at its priority in the root, ran when the deep one
 * woke (eval/walk-side.sh).  x, or the thread to dispatch instead.
 */
struct thd *
schedtree_wake_through(struct thd *x)
{
	struct comp *c = x->home, *s = woke_child, *w;
	struct thd *e = s ? s->evt : 0;
	uint64_t now;

	if (!e || e->state != HR_TS_READY || e == cur) { /* that wake is over */
		schedtree_acct.through = 0;
		return x;
	}
	w = s->parent;
	if (!c || !c->depth || c->depth > w->depth || path_at(s, c->depth) != c || c->evt != x ||
	    c->cs != x || c->pevt || e != s->cs || !may_run(e, c->depth))
		return x;
	now = hw_tsc();
	if (c != w && !calm_passes(c, w, s, now))
		return x;
	if (!idles_with(w, s, now) || s->notice.idle || thd_prepare(e))
		return x;
	return e;
}

/*
 * A walk from o, not the picture's: its notices are no news (TOLD_MOOT) to the schedulers
 * it idles, and the one on the picture's path where the two paths part may decide anew
 * since: o, if it is on the path (a scheduler whose parent dispatched it though it idled,
 * and which found nothing), else the scheduler that o's walk may find idling with o's
 * branch, not the picture's.  The ones above it, if the walk reaches them, are told that
 * their child on both paths idles, as the picture holds; whatever else they were told or
 * did since shows in the masks (news_mask, woke_mask, the top's bit).  The levels below
 * the parting are not o's to tell: the picture keeps them.  Before, any other walk ended
 * the picture: a subsystem beside a deep one, idling at every tick, left the deep one's
 * idle nothing to pass and its wakes nothing to pass either (schedtree_wake_through;
 * eval/walk-side.sh); and then it marked every level above the parting too, so that of
 * two subsystems side by side under one parent, the second to idle walked every level on
 * every tick (eval/walk-two.sh).
 */
static void
calm_elsewhere(const struct comp *o)
{
	calm.dirty |= 1u << (path_parts(o, calm.from) - 1);
}

/*
 * A walk from o, not the picture's nor deeper, reached the top unstopped: every level it
 * passed idles with its child, and was looked at now (idles_with).  Above the depth where
 * o's path parts from the picture's (o's own depth, when o is on it), those children are
 * the picture's own, so those levels are as the picture's walk would leave them: what
 * marked them changed since (calm_elsewhere, at this walk's start; notices, news_mask) is
 * cleared, and the words read now join the picture's.  The level where the paths part
 * stays marked (o, whose turn may have decided anything; or a scheduler idling with o's
 * branch), and the top is the walk's.  Before, they stayed marked: in walkside-d3, after a
 * tick whose interrupt stopped the innermost level's walk, its parent took a turn and
 * walked to the top, and on each of the next ticks the wake that side kept from the CPU
 * was passed down by a turn at every level (schedtree_wake_through: the max of walk_wake at
 * depth 3, 9,253).
 */
static void
calm_renewed_above(const struct comp *o, struct comp *top, uint64_t until, uint64_t below)
{
	uint32_t renewed = (1u << (path_parts(o, calm.from) - 1)) - 1;

	calm.dirty &= ~renewed;
	news_mask &= ~renewed;
	calm.top = top;
	calm.until = MIN(calm.until, until);
	calm.below = MIN(calm.below, below);
}

/* Does a walk from `from` to the top make the new picture?  Not when it is shallower than
 * the picture's: that one passes more levels (calm_elsewhere marked what `from` shares,
 * and calm_renewed_above clears what it found unchanged). */
static int
calm_replaced_by(const struct comp *from)
{
	return !calm.from || from->depth >= calm.from->depth;
}

/* The walk from `from` stops at p, which takes its turn: the levels it passed below p idle
 * with their children all the same, and make a picture whose top is p, marked changed with
 * every level above (until: the words read).  Before, only a walk to the top made one: a
 * deep subsystem whose walk always found the root with news (a subsystem beside it woke)
 * never had one, and its wakes behind that subsystem were passed down by a turn a level
 * (schedtree_wake_through; walkside-d5: one such tick, 14,488 instructions late). */
static void
calm_up_to(struct comp *from, struct comp *p, uint64_t until)
{
	calm = (typeof(calm)){ from, p, until, until, (p->depth_bit << 1) - 1 };
	news_mask = 0;
}

/*
 * The idle walk stands at a scheduler that idles with its child: a pending interrupt is let
 * in (trap_point) and handled now (trap_drain), so that it waits for a level of the walk,
 * not for its levels (eval/walk.sh).  If its thread has the CPU, the walk ends there: 1.
 * Nothing is lost: the schedulers above only do not hear yet that the one below idled,
 * and one that still believes it busy and dispatches it finds it idle in its turn, as it
 * would without the walk.  Otherwise the walk goes on, its clock read again (*now), and
 * the CPU idling at its top is not a new picture for calm (*stopped: what the interrupt
 * told the levels passed shows in the masks that its reset would clear).  The last one
 * holds still: the levels the walk passed are as it holds them, their notices no news.
 */
static inline __attribute__((always_inline)) int
walk_point(uint64_t *now, int *stopped)
{
	if (!trap_point())
		return 0;
	*stopped = 1;
	trap_drain();
	*now = hw_tsc();
	return cur != 0;
}

/*
 * Scheduler s idles.  Its parent hears HR_KEV_IDLE and takes a turn, which, when s was all
 * it had to run, only finds that it idles too, and so on up: a turn per level, each a
 * scheduler's whole loop (about 1100 instructions), during which a wake-up below waits, as
 * the kernel does not preempt a scheduler's turn for its descendants.  So a parent that
 * said s is all it has (idles_with) idles with s instead, its notice read on its next
 * turn, and its own parent hears that it idled: about 170 instructions a level, or none
 * when s idles again as before (calm_again), or only from the deepest level that changed
 * since (calm_below: the root's, when a task of its own ran between).  When it walks them
 * all, the kernel's one path as long as the tree is deep, it lets a pending interrupt in
 * after each level (walk_point): a timer waits for a level, not for the walk.  Returns
 * the ancestor to take a turn (NULL: none, the CPU idles, or an interrupt's thread runs:
 * cur).  The top idling alone walks nothing; its turns are news no mask shows (dirty).
 */
static struct comp *
idle_up(struct comp *s)
{
	uint64_t now = hw_tsc(), until = UINT64_MAX, below = UINT64_MAX;
	struct comp *from = s, *p, *on;
	int stopped = 0;

	if (!s->parent) { /* the top idles alone: nothing to walk, but it decided anew */
		calm.dirty |= s->depth_bit;
		return 0;
	}
	if (calm_again(s, now)) {
		if (s != calm.from) /* its parent idles with it: the picture is s's */
			calm_moves_to(s);
		notice_as(s, HR_KEV_IDLE, trace_on, TOLD_MOOT); /* its parent idles with it */
		schedtree_acct.woke_mask = 0;			/* what was to be told is moot */
		news_mask = 0;
		return 0;
	}
	if ((on = calm_below(s, now, &until))) {
		if (s != calm.from) /* its parent idles with it, until the walk ends the picture */
			calm.dirty |= s->parent->depth_bit;
		notice_as(s, HR_KEV_IDLE, trace_on, TOLD_MOOT);
		schedtree_acct.woke_mask = 0; /* moot too: the walk tells the levels above */
		s = on;
		below = until;
		if (walk_point(&now, &stopped))
			return 0; /* cur runs */
	} else if (calm.from && calm.from != from) {
		calm_elsewhere(from);
	}
	for (; (p = s->parent) && p->is_sched; s = p) {
		int with = idles_with(p, s, now); /* before the notice */
		notice_as(s, HR_KEV_IDLE, trace_on, with ? TOLD_MOOT : TOLD_NEWS);
		if (!with) {
			if (s != from && !stopped && calm_replaced_by(from))
				calm_up_to(from, p, until);
			return p;
		}
		until = MIN(until, p->region->slot[s->cs->id].alone_until);
		if (p->parent)
			below = until;
		if (walk_point(&now, &stopped))
			return 0; /* cur runs */
	}
	if (!p && !stopped) { /* the top: everyone idles */
		if (calm_replaced_by(from)) {
			calm = (typeof(calm)){ from, s, until, below, 0 };
			news_mask = 0;
		} else {
			calm_renewed_above(from, s, until, below);
		}
	}
	return p;
}

/* ---- system calls -------------------------------------------------------------------- */

long
sys_event_wait(struct thd *t)
{
	struct comp *s = t->comp, *up;
	struct thd *p;

	if (!s->is_sched || s->evt != t)
		return refuse(HR_EPERM, "thread %u is not the event thread of %u", t->id, s->id);
	if (s->evt_pending) {
		s->evt_pending = 0;
		return 1;
	}
	t->regs.rax = 1;
	t->state = HR_TS_EVWAIT;
	schedtree_publish(t);
	p = resumption(t, s);
	t->preempted = 0;
	if (p) {
		if (thd_prepare(p) == 0) {
			thd_dispatch(p, 0);
			return 1;
		}
		thd_free(p);
	}
	/* nothing of ours to resume: the CPU goes back to an ancestor, who must know */
	thd_stop();
	up = idle_up(s);
	if (up && up->is_sched)
		trace_activate(up);
	if (cur)
		return 1;
	thd_reschedule(up);
}

/* The live thread tid, owned by scheduler s itself (not granted further). */
static struct thd *
owned(struct comp *s, uint64_t tid)
{
	struct thd *x = thd_lookup(tid);
	return x && schedtree_sees(s, x) && x->depth == s->depth ? x : 0;
}

struct comp *
schedtree_child(struct comp *s, uint64_t slot)
{
	struct comp *c = comp_from_cap(s, slot);
	return c && c->parent == s && c->is_sched && c->state == COMP_LIVE ? c : 0;
}

long
sys_sched_event(struct thd *t, uint64_t thd)
{
	struct comp *s = t->comp;
	struct thd *e;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!(e = owned(s, thd)) || e->home != s)
		return refuse(HR_EPERM, "thread is not ours or lives elsewhere");
	s->evt = e;
	s->region->evt_thd = e->id;
	schedtree_publish(e);
	return 0;
}

long
sys_sched_promote(struct thd *t, uint64_t slot, uint64_t cs_id)
{
	struct comp *s = t->comp, *c = comp_from_cap(s, slot);
	struct thd *cs;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!c || c->parent != s || c->is_sched || c->state != COMP_LIVE)
		return refuse(HR_ECAP, "slot names no live, unpromoted child");
	if (s->depth + 1 > HR_DEPTH_MAX)
		return refuse(HR_EDEPTH, "depth %u", s->depth + 1);
	if (!(cs = owned(s, cs_id)) || cs->home != c || c->nthds != 1 || cs == t)
		return refuse(HR_EINVAL, "c^s must be the child's only thread, ours and idle");
	return schedtree_make(c, s, cs);
}

long
sys_sched_grant(struct thd *t, uint64_t thd, uint64_t slot)
{
	struct comp *s = t->comp, *c;
	struct thd *x;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!(c = schedtree_child(s, slot)))
		return refuse(HR_ECAP, "slot names no child scheduler");
	if (!(x = owned(s, thd)) || x->home != c)
		return refuse(HR_EPERM, "thread not ours or not homed in the child");
	if (x == cur)
		return refuse(HR_EBUSY, "cannot grant the running thread");
	schedtree_catch_up(); /* x's chain changes */
	s->region->slot[x->id].flags &= ~HR_SLOT_OWNED;
	x->chain[c->depth] = c;
	x->depth = c->depth;
	schedtree_publish(x);
	return 0;
}

long
sys_sched_revoke(struct thd *t, uint64_t thd)
{
	struct comp *s = t->comp;
	struct thd *x = thd_lookup(thd);

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!x || !schedtree_sees(s, x) || x->depth == s->depth)
		return refuse(HR_EPERM, "thread not granted below us");
	if (x == cur)
		return refuse(HR_EBUSY, "cannot revoke the running thread");
	schedtree_catch_up(); /* x's chain changes */
	for (int i = s->depth + 1; i <= x->depth; i++) {
		struct comp *c = x->chain[i];
		c->region->slot[x->id] = (struct hr_slot){ 0 };
		if (c->evt == x)
			c->evt = 0;
		x->chain[i] = 0;
	}
	x->depth = s->depth;
	if ((x->state == HR_TS_BLOCKED && x->blocker > s->depth) || x->state == HR_TS_EVWAIT)
		x->state = HR_TS_READY;
	schedtree_publish(x);
	return 0;
}

long
sys_timer_next(struct thd *t, uint64_t tsc)
{
	struct comp *s = t->comp;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	schedtree_timer(s, tsc);
	return 0;
}

/* Demote c and everything below it: their threads go back to c's parent. */
static void
demote(struct comp *c)
{
	struct comp *p = c->parent;

	schedtree_catch_up(); /* chains change */
	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		if (comps[i].state != COMP_FREE && comps[i].parent == c && comps[i].is_sched)
			demote(&comps[i]);
	for (unsigned i = 1; i < HR_THD_MAX; i++) {
		struct thd *x = &thds[i];
		if (x->state == HR_TS_FREE || !schedtree_sees(c, x))
			continue;
		for (int l = c->depth; l <= x->depth; l++)
			x->chain[l] = 0;
		x->depth = p->depth;
		if (x->state == HR_TS_EVWAIT ||
		    (x->state == HR_TS_BLOCKED && x->blocker >= c->depth))
			x->state = HR_TS_READY;
		schedtree_publish(x);
	}
	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		if (comps[i].state != COMP_FREE && comps[i].sub == c)
			comps[i].sub = p;
	schedtree_unmake(c);
	c->sub = p;
}

long
sys_sched_demote(struct thd *t, uint64_t slot)
{
	struct comp *c = schedtree_child(t->comp, slot);

	if (!c)
		return refuse(HR_ECAP, "slot names no child scheduler");
	if (schedtree_sees(c, t))
		return refuse(HR_EBUSY, "the running thread belongs to it");
	demote(c);
	return 0;
}

/* Is scheduler d in c's subtree (c itself included)?  Its ancestor at c's depth is c. */
static int
in_subtree(const struct comp *d, const struct comp *c)
{
	while (d && d->depth > c->depth)
		d = d->parent;
	return d == c;
}

/* The child scheduler whose c^s is thread tid, live; NULL if none. */
static struct comp *
child_of_cs(struct comp *s, uint64_t tid)
{
	struct thd *x = thd_lookup(tid);
	struct comp *c = x ? x->home : 0;

	return c && c->parent == s && c->is_sched && c->cs == x && c->state == COMP_LIVE ? c : 0;
}

/*
 * A hold changes only when a parent's server runs out of budget or gets it back, a few
 * times a period: so it pays for its subtree (a pass over the components, each looking up
 * its ancestors: at most HR_COMP_MAX times the depth, whatever the shape), and may_run, on
 * every interrupt, does not pay for depth.
 */
long
sys_sched_hold(struct thd *t, uint64_t thd, uint64_t value)
{
	struct comp *c = child_of_cs(t->comp, thd);
	uint32_t bit;

	if (!t->comp->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", t->comp->id);
	if (!c)
		return refuse(HR_EINVAL, "thread %lu is no child scheduler's c^s", thd);
	if (value > 1)
		return refuse(HR_EINVAL, "value %lu: 0 or 1", value);
	if (c->held == value)
		return 0;
	c->held = (uint8_t) value;
	bit = c->depth_bit;
	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		if (comps[i].state != COMP_FREE && comps[i].is_sched && in_subtree(&comps[i], c))
			comps[i].held_path =
				value ? comps[i].held_path | bit : comps[i].held_path & ~bit;
	return 0;
}

long
sys_sched_pevt(struct thd *t, uint64_t slot, uint64_t value)
{
	struct comp *c = schedtree_child(t->comp, slot);

	if (!c)
		return refuse(HR_ECAP, "slot names no child scheduler");
	c->pevt = value ? 1 : 0;
	c->region->pevt = c->pevt;
	return 0;
}
