#!/usr/bin/python3
"""Compares the reason codes and error classes of schemas/report.schema.json with the
REASON CODES section of man/netprobe.1, both ways.
usage: vocabulary.py SCHEMA MAN   (prints one line per difference; exit 1 if any)"""
import json
import re
import sys


def main(schema_path, man_path):
    schema = json.load(open(schema_path))
    reasons = set(schema["properties"]["reason"]["enum"])
    classes = {c for c in schema["$defs"]["probe"]["properties"]["error_class"]["enum"] if c is not None}
    man = open(man_path).read()
    match = re.search(r"^\.Sh REASON CODES\n(.*?)(?=^\.Sh )", man, re.S | re.M)
    if not match:
        print("netprobe(1) has no REASON CODES section")
        return 1
    section = match.group(1)
    listed, _, after = section.partition("\n.El\n")
    man_reasons = set(re.findall(r"^\.It Cm (\S+)", listed, re.M))
    # The error classes: every word of the .Cm lines after the list, up to the section's end.
    man_classes = set()
    for line in re.findall(r"^\.Cm (.*)$", after, re.M):
        man_classes.update(word for word in re.split(r"[ ,]+", line) if re.fullmatch(r"[a-z0-9-]+", word))
    problems = []
    for name, have, documented in (("reason code", reasons, man_reasons), ("error class", classes, man_classes)):
        problems += [f"{name} {c!r} is in the schema but not in netprobe(1)" for c in sorted(have - documented)]
        problems += [f"{name} {c!r} is in netprobe(1) but not in the schema" for c in sorted(documented - have)]
    for problem in problems:
        print(problem)
    print(f"{len(reasons)} reason codes, {len(classes)} error classes compared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
