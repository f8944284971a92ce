#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The netlink spec is consistent, and the checker catches each kind of inconsistency."""
import copy
import os
import sys
import unittest

import yaml

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts"))
import mrc_nl_spec  # noqa: E402

SPEC = os.path.join(TOP, "Documentation", "netlink", "specs", "mrc.yaml")


def load():
    with open(SPEC, encoding="utf-8") as f:
        return yaml.safe_load(f)


def attr_set(spec, name):
    return next(s for s in spec["attribute-sets"] if s["name"] == name)


def op(spec, name):
    return next(o for o in spec["operations"]["list"] if o["name"] == name)


class SpecTest(unittest.TestCase):
    def setUp(self):
        self.spec = load()

    def problems_after(self, change):
        spec = copy.deepcopy(self.spec)
        change(spec)
        return mrc_nl_spec.check(spec)

    def test_spec_is_consistent(self):
        self.assertEqual(mrc_nl_spec.check(self.spec), [])

    def test_ocp_state_values(self):
        states = next(d for d in self.spec["definitions"] if d["name"] == "ev-state")
        self.assertEqual({e["name"]: e["value"] for e in states["entries"]},
                         {"good": 1, "assumed-bad": 2, "denied": 4})

    def test_changes_need_admin(self):
        for o in self.spec["operations"]["list"]:
            changes = o["name"].endswith(("-new", "-set", "-del", "-add")) or o["name"] == "probe"
            if changes:
                flags = set(o.get("flags", []))
                self.assertTrue({"admin-perm", "uns-admin-perm"} & flags, o["name"])

    def test_unknown_request_attribute(self):
        p = self.problems_after(
            lambda s: op(s, "dev-get")["do"]["request"]["attributes"].append("nope"))
        self.assertEqual(p, ["dev-get do request: dev has no attribute nope"])

    def test_unknown_nest(self):
        def change(s):
            next(a for a in attr_set(s, "dev")["attributes"]
                 if a["name"] == "planes")["nested-attributes"] = "nope"
        self.assertEqual(self.problems_after(change), ["dev.planes: nests unknown set nope"])

    def test_check_out_of_range(self):
        def change(s):
            attr_set(s, "plane")["attributes"][0]["checks"]["max"] = 300
        self.assertEqual(self.problems_after(change), ["plane.id: check max = 300 does not fit u8"])

    def test_unknown_enum_and_group(self):
        def change(s):
            attr_set(s, "ev")["attributes"][4]["enum"] = "nope"
            op(s, "ev-event")["mcgrp"] = "nope"
        self.assertEqual(self.problems_after(change),
                         ["ev.state: unknown enum nope", "ev-event: event for unknown group nope"])

    def test_duplicate_attribute(self):
        def change(s):
            attrs = attr_set(s, "plane")["attributes"]
            attrs.append(copy.deepcopy(attrs[0]))
        self.assertEqual(self.problems_after(change), ["plane: attribute id is defined twice"])


if __name__ == "__main__":
    unittest.main()
