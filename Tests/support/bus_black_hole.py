#!/usr/bin/env python3
"""A daemon that owns NAME on the bus at SOCKET and never answers: it connects (EXTERNAL
authentication, Hello), requests NAME, prints "owned", then reads every message and answers
none, printing "call MEMBER" for each method call it receives (flushed at once).

A test fixture (OwnerBusTests): the wire format is spoken here by hand, little-endian, only
as far as a client needs it, so that no D-Bus library is needed.

usage: bus_black_hole.py SOCKET NAME
"""
import os
import socket
import struct
import sys


def pad(buffer, boundary):
    return buffer + b"\0" * (-len(buffer) % boundary)


def method_call(serial, member, signature="", body=b""):
    """A method call to the broker itself, header fields aligned from the message's start."""
    fields = [(1, "o", "/org/freedesktop/DBus"), (6, "s", "org.freedesktop.DBus"),
              (2, "s", "org.freedesktop.DBus"), (3, "s", member)]
    if signature:
        fields.append((8, "g", signature))
    message = bytearray(16)
    for code, kind, value in fields:
        message = pad(message, 8)
        message += bytes([code, 1]) + kind.encode() + b"\0"
        data = value.encode()
        if kind == "g":
            message += bytes([len(data)]) + data + b"\0"
        else:
            message = pad(message, 4)
            message += struct.pack("<I", len(data)) + data + b"\0"
    fields_length = len(message) - 16
    message = pad(message, 8)
    message[0:16] = b"l" + bytes([1, 0, 1]) + struct.pack("<III", len(body), serial, fields_length)
    return bytes(message) + body


def string(value):
    data = value.encode()
    return struct.pack("<I", len(data)) + data + b"\0"


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data


def messages(connection):
    """Each message's type and header fields (code -> value), as they arrive."""
    while True:
        fixed = read_exactly(connection, 16)
        body_length, _, fields_length = struct.unpack("<III", fixed[4:16])
        rest = read_exactly(connection, fields_length + (-(16 + fields_length) % 8) + body_length)
        header = fixed + rest
        fields, position = {}, 16
        while position < 16 + fields_length:
            position += -position % 8
            code, signature_length = header[position], header[position + 1]
            kind = header[position + 2:position + 2 + signature_length].decode()
            position += 3 + signature_length
            if kind in ("s", "o"):
                position += -position % 4
                (length,) = struct.unpack("<I", header[position:position + 4])
                fields[code] = header[position + 4:position + 4 + length].decode()
                position += 5 + length
            elif kind == "g":
                length = header[position]
                fields[code] = header[position + 1:position + 1 + length].decode()
                position += 2 + length
            else:  # u, h: the reply serial, the descriptors
                position += -position % 4
                (fields[code],) = struct.unpack("<I", header[position:position + 4])
                position += 4
        yield fixed[1], fields


def main():
    path, name = sys.argv[1], sys.argv[2]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    connection.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
    if not connection.recv(4096).startswith(b"OK "):
        sys.exit("the broker refused the authentication")
    connection.sendall(b"BEGIN\r\n")
    connection.sendall(method_call(1, "Hello"))
    # DO_NOT_QUEUE (4): owned at once or not at all.
    connection.sendall(method_call(2, "RequestName", "su", pad(string(name), 4) + struct.pack("<I", 4)))
    owned = False
    for kind, fields in messages(connection):
        if kind == 2 and fields.get(5) == 2:  # RequestName's reply
            owned = True
            print("owned", flush=True)
        elif kind == 1 and owned:
            print("call", fields.get(3, "?"), flush=True)


if __name__ == "__main__":
    main()
