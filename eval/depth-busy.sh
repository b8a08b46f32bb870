#!/bin/bash
# depth-busy.sh - the depth experiment under load: images depth-busy-d0 .. -d16 are depth-dD
# with a busy task (depthbench's `busy`: an endless loop, best effort, priority 255, the
# lowest, never sleeping) in the root at every depth and in every level between it and the
# innermost subsystem, which measures as in depth-dD (in depth-busy-d0 the root is the
# innermost, and its busy task runs beside the benchmark).  The benchmark's threads are more
# urgent than any busy one, so the figures should stay flat against depth and close to
# depth.sh's.  depth.sh does the sweep, the data (ID-depth-busy.dat), the plots
# (depth-busy.png), the checks and the targets.  The checks are the plain sweep's: depth 16
# within 3% of depth 1 (0.6% above it) and at most 3% above the root (it is 3.7% below: at
# depth 0 the woken thread's own scheduler has the busy thread to charge and requeue; deeper
# the wake-up preempts an ancestor's instead, docs/EVAL.md).
export DEPTH_IMAGE=depth-busy DEPTH_SUFFIX=depth-busy EVAL_AS=eval/depth-busy.sh
export DEPTH_FLAT_SLACK=${BUSY_FLAT_SLACK:-0.03} DEPTH_ROOT_SLACK=${BUSY_ROOT_SLACK:-0.03}
exec bash "$(dirname "$0")/depth.sh" "$@"
