#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""console.py HOST PORT - the serial console server of the simulated lab
(make lava-check): listens on HOST:PORT, takes the one connection the
machine's serial port makes (QEMU -serial tcp:HOST:PORT), and relays it to
stdout, and stdin to it, as a lab's ser2net or conmux console does for
LAVA's connection command.  Exits when the machine goes away."""

import argparse
import os
import select
import socket
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("host", metavar="HOST", help="the address to listen on")
    ap.add_argument("port", type=int, metavar="PORT", help="the TCP port to listen on")
    args = ap.parse_args()
    host, port = args.host, args.port
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((host, port))
    srv.listen(1)
    conn, _ = srv.accept()
    srv.close()
    out, inp = sys.stdout.fileno(), sys.stdin.fileno()
    watch = [conn, inp]
    while True:
        ready, _, _ = select.select(watch, [], [])
        if conn in ready:
            data = conn.recv(4096)
            if not data:
                return 0
            os.write(out, data)
        if inp in ready:
            data = os.read(inp, 4096)
            if not data:
                watch.remove(inp)
            else:
                conn.sendall(data)


if __name__ == "__main__":
    sys.exit(main())
