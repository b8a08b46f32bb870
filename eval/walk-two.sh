#!/bin/bash
# walk-two.sh - walk.sh's sweep with two subsystems that tick side by side: images
# walktwo-d0 .. -d15 (MANIFEST: walktwo) put below D nested levels two subsystems, `a` and
# `b`, each with a task that wakes and sleeps at every tick, so that at every tick one of
# them idles first and their parent takes a turn, and the other's idle walks the levels
# above (once every level: the walk's picture was of one scheduler's path, now of either
# sibling's, kernel/schedtree.c calm_of).  Each
# line's depth is that of `a` and `b`, D + 1 (DEPTH_OFFSET), from 1 to 16.  The root
# timer's max grows with the depth (threads preempted in turn there take more records of
# levels behind than there are, and one is caught up whole, every few hundred ticks:
# docs/EVAL.md, walk-two), so it is recorded, not checked (DEPTH_RECORDED) until it is
# flat.
export WALK_IMAGE=walktwo WALK_SUFFIX=walk-two WALK_AS=eval/walk-two.sh
export DEPTH_HI=15 DEPTH_OFFSET=1 DEPTH_RECORDED=walk_timer
export WALK_XLABEL="depth of the two subsystems that wake at every tick, side by side"
exec bash "$(dirname "$0")/walk.sh" "$@"
