#!/usr/bin/env python3
"""Hold a tun device open, so that it has carrier, and swallow every packet
the kernel routes into it: a VPN tunnel whose far end is gone. The device
(made with `ip tuntap add mode tun`) is up and LOWER_UP while this runs;
nothing ever comes back out of it. Runs in the client namespace until killed.

usage: tun_hold.py DEVICE
Prints "holding DEVICE" once attached; each packet swallowed is counted in
the log's last line on exit (SIGTERM). Standard library only."""

import fcntl
import os
import signal
import struct
import sys

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def main(argv):
    if len(argv) != 1 or not argv[0] or len(argv[0].encode()) > 15:
        print(__doc__, file=sys.stderr)
        return 64
    name = argv[0]
    fd = os.open("/dev/net/tun", os.O_RDWR)
    # struct ifreq: the name (16 bytes), then the flags (a short), padded to 40 bytes.
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH22x", name.encode(), IFF_TUN | IFF_NO_PI))
    swallowed = 0

    def stop(signum, _frame):
        print(f"swallowed {swallowed} packets", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"holding {name}", flush=True)
    while True:
        if os.read(fd, 65536):
            swallowed += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
