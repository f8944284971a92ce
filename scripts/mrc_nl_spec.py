#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks of mrc's generic netlink spec (Documentation/netlink/specs/mrc.yaml).

    mrc_nl_spec.py check SPEC

Fails (exit 1, one line per problem) when the spec is not self-consistent: an operation
names an attribute its set lacks, a nest names a set that does not exist, an attribute names
an enum that is not defined, names repeat, a multicast event names an unknown group, or a
check does not fit its type. The kernel's policies and the uapi header will be generated
from the same file, so what this accepts is what they will be made of.
"""
import sys

import yaml

SCALARS = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "flag", "string", "binary",
           "nest", "pad"}
CHECKS = {"u8": {"min", "max"}, "u16": {"min", "max"}, "u32": {"min", "max"},
          "u64": {"min", "max"}, "string": {"max-len"}, "binary": {"max-len", "exact-len"}}
UNSIGNED_MAX = {"u8": 0xff, "u16": 0xffff, "u32": 0xffffffff, "u64": 0xffffffffffffffff}


def duplicates(names):
    seen, dup = set(), set()
    for n in names:
        (dup if n in seen else seen).add(n)
    return sorted(dup)


def check(spec):
    problems = []
    enums = {d["name"] for d in spec.get("definitions", []) if d.get("type") in ("enum", "flags")}
    for d in duplicates(d["name"] for d in spec.get("definitions", [])):
        problems.append(f"definition {d} is defined twice")

    sets = {}
    for aset in spec.get("attribute-sets", []):
        name = aset["name"]
        if name in sets:
            problems.append(f"attribute set {name} is defined twice")
        sets[name] = {a["name"]: a for a in aset["attributes"]}
        for d in duplicates(a["name"] for a in aset["attributes"]):
            problems.append(f"{name}: attribute {d} is defined twice")

    for name, attrs in sets.items():
        for aname, a in attrs.items():
            where = f"{name}.{aname}"
            t = a.get("type")
            if t not in SCALARS:
                problems.append(f"{where}: unknown type {t}")
                continue
            if t == "nest" and a.get("nested-attributes") not in sets:
                problems.append(f"{where}: nests unknown set {a.get('nested-attributes')}")
            if "enum" in a and a["enum"] not in enums:
                problems.append(f"{where}: unknown enum {a['enum']}")
            for c, v in a.get("checks", {}).items():
                if c not in CHECKS.get(t, set()):
                    problems.append(f"{where}: check {c} does not apply to {t}")
                elif not isinstance(v, int) or v < 0 or v > UNSIGNED_MAX.get(t, 0xffffffff):
                    problems.append(f"{where}: check {c} = {v} does not fit {t}")
            checks = a.get("checks", {})
            if "min" in checks and "max" in checks and checks["min"] > checks["max"]:
                problems.append(f"{where}: min above max")

    groups = {g["name"] for g in spec.get("mcast-groups", {}).get("list", [])}
    ops = spec.get("operations", {}).get("list", [])
    for d in duplicates(o["name"] for o in ops):
        problems.append(f"operation {d} is defined twice")
    for op in ops:
        aset = op.get("attribute-set")
        if aset not in sets:
            problems.append(f"{op['name']}: unknown attribute set {aset}")
            continue
        parts = []
        for mode in ("do", "dump"):
            for part in ("request", "reply"):
                parts.append((f"{mode} {part}", op.get(mode, {}).get(part, {})))
        parts.append(("event", op.get("event", {})))
        for what, part in parts:
            for attr in (part or {}).get("attributes", []):
                if attr not in sets[aset]:
                    problems.append(f"{op['name']} {what}: {aset} has no attribute {attr}")
        if "event" in op and op.get("mcgrp") not in groups:
            problems.append(f"{op['name']}: event for unknown group {op.get('mcgrp')}")
        if not any(k in op for k in ("do", "dump", "event")):
            problems.append(f"{op['name']}: neither do, dump nor event")
    return problems


def main(argv):
    if len(argv) != 3 or argv[1] != "check":
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[2], encoding="utf-8") as f:
            spec = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print(f"{argv[2]}: {e}".replace("\n", " "))
        return 1
    problems = check(spec)
    for p in problems:
        print(f"{argv[2]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
