#!/usr/bin/python3
"""Runs a program under the seccomp rules the netprobe units ask systemd for, without
systemd: no systemd is PID 1 here, so `systemd-run` cannot apply them.

usage: unit-sandbox.py [--packet] PROGRAM [ARGS...]   (run it as the unit's user, e.g. under setpriv)
  --packet: AF_PACKET too, as netprobe-watch.service allows it (for the DHCPINFORM's answer)

Like systemd 252 (src/shared/seccomp-util.c), for x86-64:
  SystemCallFilter=@system-service, SystemCallFilter=~@privileged @resources,
  SystemCallErrorNumber=EPERM   an allow list of the group's system calls (expanded from
                                `systemd-analyze syscall-filter`), everything else EPERM
  MemoryDenyWriteExecute=yes    mmap with PROT_WRITE|PROT_EXEC, mprotect/pkey_mprotect with
                                PROT_EXEC and shmat with SHM_EXEC fail with EPERM
  RestrictAddressFamilies=AF_NETLINK AF_INET AF_INET6 AF_UNIX
                                socket() of any other family fails with EAFNOSUPPORT
  NoNewPrivileges=yes           prctl(PR_SET_NO_NEW_PRIVS), which an unprivileged filter needs
  SystemCallArchitectures=native  other architectures' calls fail (EPERM)
Then it execs PROGRAM. Exits 70 when the filter cannot be built or installed."""
import ctypes
import os
import re
import struct
import subprocess
import sys

AUDIT_ARCH_X86_64 = 0xC000003E
RET_ALLOW = 0x7FFF0000
EPERM, EAFNOSUPPORT = 1, 97
PROT_WRITE, PROT_EXEC, SHM_EXEC = 0x2, 0x4, 0o100000
FAMILIES = [1, 2, 10, 16]  # AF_UNIX, AF_INET, AF_INET6, AF_NETLINK
AF_PACKET = 17
LD_W_ABS, JEQ_K, JSET_K, AND_K, RET_K = 0x20, 0x15, 0x45, 0x54, 0x06
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


def errno_ret(errno):
    return 0x00050000 | errno


def groups():
    """{"@group": [member, ...]} from systemd-analyze (members: names or @groups)."""
    text = subprocess.run(["systemd-analyze", "syscall-filter"], check=True, capture_output=True, text=True).stdout
    found, current = {}, None
    for line in text.splitlines():
        if re.match(r"^@\S+$", line):
            current = found.setdefault(line, [])
        elif current is not None and re.match(r"^    [@a-z0-9_]", line):
            current.append(line.split()[0])
    return found


def expand(name, table, seen=None):
    seen = set() if seen is None else seen
    if not name.startswith("@"):
        return {name}
    if name in seen:
        return set()
    seen.add(name)
    result = set()
    for member in table.get(name, []):
        result |= expand(member, table, seen)
    return result


def numbers():
    header = open("/usr/include/x86_64-linux-gnu/asm/unistd_64.h").read()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"#define __NR_(\w+)\s+(\d+)", header)}


def program():
    table, nr = groups(), numbers()
    allowed = expand("@system-service", table) - expand("@privileged", table) - expand("@resources", table)
    insns = []

    def ins(code, k, jt=0, jf=0):
        insns.append((code, jt, jf, k))

    def load_nr():
        ins(LD_W_ABS, 0)

    def load_arg(i):  # the low 32 bits of argument i (little-endian)
        ins(LD_W_ABS, 16 + 8 * i)

    ins(LD_W_ABS, 4)
    ins(JEQ_K, AUDIT_ARCH_X86_64, 1, 0)
    ins(RET_K, errno_ret(EPERM))

    def special(name, body):
        load_nr()
        block = []
        insns_before = len(insns)
        ins(JEQ_K, nr[name], 0, 0)  # jf patched below
        body()
        length = len(insns) - insns_before - 1
        code, jt, _, k = insns[insns_before]
        insns[insns_before] = (code, jt, length, k)
        del block

    def mmap_body():
        load_arg(2)
        ins(AND_K, PROT_WRITE | PROT_EXEC)
        ins(JEQ_K, PROT_WRITE | PROT_EXEC, 0, 1)
        ins(RET_K, errno_ret(EPERM))
        ins(RET_K, RET_ALLOW)

    def exec_flag_body(flag):
        def body():
            load_arg(2)
            ins(JSET_K, flag, 0, 1)
            ins(RET_K, errno_ret(EPERM))
            ins(RET_K, RET_ALLOW)
        return body

    def socket_body():
        load_arg(0)
        for family in FAMILIES:
            ins(JEQ_K, family, 0, 1)
            ins(RET_K, RET_ALLOW)
        ins(RET_K, errno_ret(EAFNOSUPPORT))

    special("mmap", mmap_body)
    special("mprotect", exec_flag_body(PROT_EXEC))
    special("pkey_mprotect", exec_flag_body(PROT_EXEC))
    special("shmat", exec_flag_body(SHM_EXEC))
    special("socket", socket_body)
    load_nr()
    for name in sorted(allowed):
        if name in nr and name not in ("mmap", "mprotect", "pkey_mprotect", "shmat", "socket"):
            ins(JEQ_K, nr[name], 0, 1)
            ins(RET_K, RET_ALLOW)
    ins(RET_K, errno_ret(EPERM))
    return insns, allowed


def install(insns):
    libc = ctypes.CDLL(None, use_errno=True)
    raw = b"".join(struct.pack("HBBI", *i) for i in insns)
    buf = ctypes.create_string_buffer(raw, len(raw))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(len(insns), ctypes.cast(buf, ctypes.c_void_p))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def main(argv):
    if argv and argv[0] == "--packet":
        FAMILIES.append(AF_PACKET)
        argv = argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 64
    try:
        insns, allowed = program()
        if len(allowed) < 100 or len(insns) > 4096:
            raise RuntimeError(f"implausible filter: {len(allowed)} system calls, {len(insns)} instructions")
        install(insns)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        print(f"unit-sandbox.py: {error}", file=sys.stderr)
        return 70
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
