#!/usr/bin/env python3
"""trace.py - decode what the kernel's trace port received (kernel/trace.c) into the Chrome
Trace Event format, which ui.perfetto.dev opens: one process per subsystem ("web (depth 1)"),
one track per thread of it, an "X" event per interval a thread ran, instant events for
event-thread activations, and a "kernel" process with tracks for interrupts, kernel events
and the trace's own drains.  Format and use: docs/TRACE.md.

Usage: trace.py RAW OUT.json   (make trace IMAGE=name runs it)
"""
import json
import struct
import sys

# enum trace_type (kernel/trace.h)
SWITCH, ACTIVATE, IRQ, KEV, FREE, DRAIN = range(1, 7)
# enum hr_kev_type (kernel/abi/hr_sched.h); vectors (kernel/arch/x86_64/hw.h)
KEV_NAMES = {1: "fault", 2: "exit", 3: "idle", 4: "wake", 5: "net"}
VEC_NAMES = {32: "timer tick", 48: "deadline timer", 63: "spurious"}
KERNEL_PID = 1
KERNEL_TRACKS = {"interrupts": 1, "kernel events": 2, "trace drain": 3}


class TraceError(Exception):
    pass


def read(lines):
    """The port's lines as (tsc_hz, items, end): items are ("r", fields) and ("m", fields),
    in the order they arrived."""
    tsc_hz, items, end = None, [], None
    for n, line in enumerate(lines, 1):
        w = line.split()
        if not w:
            continue
        if w[0] == "hrtrace":
            if len(w) != 3 or w[1] != "1" or not w[2].startswith("tsc_hz="):
                raise TraceError(f"line {n}: not a version 1 trace header: {line.strip()}")
            tsc_hz = int(w[2][7:])
        elif w[0] == "r" and len(w) == 2 and len(w[1]) == 32:
            items.append(("r", struct.unpack("<QBBHI", bytes.fromhex(w[1]))))
        elif w[0] == "m" and len(w) == 6:
            items.append(("m", (int(w[1]), int(w[2]), w[3], w[4], w[5])))
        elif w[0] == "end" and len(w) == 2:
            end = int(w[1])
        else:
            raise TraceError(f"line {n}: unknown line: {line.strip()[:60]}")
    if not tsc_hz:
        raise TraceError("no 'hrtrace' header: was the image booted with trace=1?")
    return tsc_hz, items, end


class Decoder:
    def __init__(self, tsc_hz):
        self.us = 1e6 / tsc_hz
        self.gen = {}  # thread id -> how many times it was freed so far
        self.meta = {}  # (id, gen) -> (depth, subsystem, home, role), the latest names
        self.events = []
        self.running = None  # ((id, gen), since tsc)

    def key(self, tid):
        return (tid, self.gen.get(tid, 0))

    def ts(self, tsc):
        return tsc * self.us

    def close(self, tsc):
        if self.running:
            k, since = self.running
            self.events.append({"ph": "X", "name": "running", "key": k,
                                "ts": self.ts(since), "dur": (tsc - since) * self.us})
            self.running = None

    def instant(self, name, tsc, key=None, track=None, args=None):
        e = {"ph": "i", "s": "t", "name": name, "ts": self.ts(tsc), "args": args or {}}
        if key:
            e["key"] = key
        else:
            e["pid"], e["tid"] = KERNEL_PID, KERNEL_TRACKS[track]
        self.events.append(e)

    def record(self, r):
        tsc, typ, x, a, b = r
        if typ == SWITCH:
            self.close(tsc)
            if b:
                self.running = (self.key(b), tsc)
        elif typ == ACTIVATE:
            self.instant("activate", tsc, key=self.key(a),
                         args={"scheduler": b, "took the CPU": bool(x)})
        elif typ == IRQ:
            self.instant(VEC_NAMES.get(x, f"irq {x}"), tsc, track="interrupts",
                         args={"vector": x})
        elif typ == KEV:
            self.instant("kev " + KEV_NAMES.get(x, str(x)), tsc, track="kernel events",
                         args={"scheduler": a, "about": b})
        elif typ == FREE:
            self.gen[a] = self.gen.get(a, 0) + 1
        elif typ == DRAIN:
            self.events.append({"ph": "X", "name": "drain", "pid": KERNEL_PID,
                                "tid": KERNEL_TRACKS["trace drain"], "ts": self.ts(tsc),
                                "dur": b * self.us})
        else:
            raise TraceError(f"record of unknown type {typ}")

    def names(self, m):
        tid, depth, subsys, home, role = m
        self.meta[self.key(tid)] = (depth, subsys, home, role)

    def output(self, tsc_hz):
        """Give each subsystem a pid and each thread a tid, and name them (M events)."""
        pids, tids, out = {}, {}, []
        meta = [{"ph": "M", "name": "process_name", "pid": KERNEL_PID,
                 "args": {"name": "kernel"}}]
        for track, tid in KERNEL_TRACKS.items():
            meta.append({"ph": "M", "name": "thread_name", "pid": KERNEL_PID, "tid": tid,
                         "args": {"name": track}})
        for e in self.events:
            k = e.pop("key", None)
            if k is not None:
                if k not in tids:
                    depth, subsys, home, role = self.meta.get(k, (0, "unknown", "-", "-"))
                    if subsys not in pids:
                        pids[subsys] = len(pids) + 2
                        meta.append({"ph": "M", "name": "process_name", "pid": pids[subsys],
                                     "args": {"name": f"{subsys} (depth {depth})"}})
                        meta.append({"ph": "M", "name": "process_sort_index",
                                     "pid": pids[subsys], "args": {"sort_index": depth}})
                    tids[k] = (pids[subsys], len(tids) + 100)
                    name = f"{home} t{k[0]}" + (f" ({role})" if role != "-" else "")
                    meta.append({"ph": "M", "name": "thread_name", "pid": tids[k][0],
                                 "tid": tids[k][1], "args": {"name": name}})
                e["pid"], e["tid"] = tids[k]
            out.append(e)
        return {"traceEvents": meta + out, "displayTimeUnit": "ns",
                "otherData": {"source": "HiRES kernel trace (docs/TRACE.md)",
                              "tsc_hz": tsc_hz}}


def decode(lines):
    tsc_hz, items, end = read(lines)
    d = Decoder(tsc_hz)
    last = 0
    for kind, fields in items:
        if kind == "r":
            d.record(fields)
            last = fields[0]
        else:
            d.names(fields)
    d.close(end if end is not None else last)
    return d.output(tsc_hz)


def main(argv):
    if len(argv) != 3:
        print("usage: trace.py RAW OUT.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="ascii", errors="replace") as f:
            trace = decode(f)
    except (OSError, TraceError, ValueError, struct.error) as e:
        print(f"trace: {argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "w", encoding="ascii") as f:
        json.dump(trace, f, indent=0)
    n = sum(1 for e in trace["traceEvents"] if e["ph"] == "X")
    print(f"trace: {argv[2]}: {len(trace['traceEvents'])} events, {n} running intervals")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
