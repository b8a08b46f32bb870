#!/bin/bash
# walk-side.sh - walk.sh's sweep with a subsystem beside the levels: images walkside-d0 ..
# -d16 (MANIFEST: walkside) add, at depth 1, a subsystem whose task wakes and sleeps at
# every tick too, at the levels' priority in the root: a scheduler beside the deep one's
# path, at one of its depths.  A wake below is told to each level above as a thread of
# its own runs (kernel/schedtree.c, schedtree_woke_tell); told when the one beside ran,
# the levels' top had news and took its turn, and so did every level below it, on every
# tick (docs/EVAL.md, walk-side).  walk.sh's checks bound the max; the target lines say
# what the median does.
export WALK_IMAGE=walkside WALK_SUFFIX=walk-side WALK_AS=eval/walk-side.sh
export WALK_XLABEL="depth of the subsystem that wakes at every tick (one beside at depth 1)"
exec bash "$(dirname "$0")/walk.sh" "$@"
