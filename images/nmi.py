#!/usr/bin/env python3
"""nmi.py SOCKET - send QEMU's monitor command "nmi" every 10 ms through the monitor on the
UNIX socket SOCKET (images/run.sh --nmi) until QEMU closes it.  It waits up to 10 s for the
socket, then for the kernel's IDT (its base in the kernel's half, as "info registers"
shows): the firmware and the boot loader before it have no NMI handler, and a guest
that dies there proves nothing.  Prints how many it sent, to stderr."""
import socket
import sys
import time


def connect(path):
    for _ in range(200):
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            time.sleep(0.05)
    return None


def main():
    s = connect(sys.argv[1])
    sent = 0
    if s is None:
        print("nmi: no monitor at " + sys.argv[1], file=sys.stderr)
        return 1
    s.setblocking(False)
    try:
        seen = b""
        while b"IDT=     ffffffff8" not in seen:
            s.sendall(b"info registers\n")
            time.sleep(0.05)
            try:
                got = s.recv(65536)
            except BlockingIOError:
                continue
            if got == b"":
                raise OSError("QEMU is gone")
            seen = seen[-4096:] + got
        while True:
            s.sendall(b"nmi\n")
            sent += 1
            time.sleep(0.01)
            try:
                if s.recv(65536) == b"":  # QEMU is gone
                    break
            except BlockingIOError:
                pass
    except OSError:
        pass
    print("nmi: %d sent" % sent, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
