#!/usr/bin/env python3
"""trace_check.py - check a decoded scheduling trace (images/trace.py) against the tracks an
image must show (tests/images/NAME.tracks: "SUBSYSTEM DEPTH HOME N" lines).  One line per
case, "ok   trace NAME CASE" or "FAIL trace NAME CASE: why"; exit 1 on any failure.

Usage: trace_check.py NAME TRACE.json NAME.tracks   (tests/run.sh, image tier)
"""
import json
import sys
from collections import defaultdict


def check(name, trace_file, tracks_file):
    cases = []

    def case(ok, what, why=""):
        cases.append(f"ok   trace {name} {what}" if ok else f"FAIL trace {name} {what}: {why}")

    try:
        with open(trace_file, encoding="ascii") as f:
            events = json.load(f)["traceEvents"]
        case(True, "is_json_with_trace_events")
    except (OSError, ValueError, KeyError, TypeError) as e:
        case(False, "is_json_with_trace_events", str(e))
        return cases
    procs, threads, ran = {}, {}, defaultdict(int)
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X" and e.get("dur", -1) >= 0:
            ran[(e["pid"], e["tid"])] += 1
    unnamed = [k for k in ran if k not in threads]
    case(not unnamed, "every_running_interval_is_on_a_named_track", f"unnamed {unnamed[:3]}")
    acts = sum(1 for e in events if e.get("ph") == "i" and e.get("name") == "activate")
    case(acts > 0, "event_thread_activations_recorded", "no 'activate' instant event")
    with open(tracks_file, encoding="ascii") as f:
        for line in f:
            w = line.split("#")[0].split()
            if not w:
                continue
            subsys, depth, home, n = w[0], w[1], w[2], int(w[3])
            pname = f"{subsys} (depth {depth})"
            found = [k for k, t in threads.items()
                     if procs.get(k[0]) == pname and t.startswith(home + " t") and ran[k]]
            case(len(found) >= n, f"{home}_has_{n}_running_tracks_under_'{pname}'",
                 f"found {len(found)}; tracks: "
                 + ", ".join(f"{procs.get(k[0])}: {t}" for k, t in sorted(threads.items())))
    return cases


def main(argv):
    if len(argv) != 4:
        print("usage: trace_check.py NAME TRACE.json NAME.tracks", file=sys.stderr)
        return 2
    cases = check(*argv[1:])
    print("\n".join(cases))
    return 1 if any(c.startswith("FAIL") for c in cases) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
