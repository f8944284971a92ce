#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The generated netlink files are what the spec makes, and the generator makes the right C."""
import contextlib
import copy
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts"))
import mrc_nl_gen  # noqa: E402

SPEC = os.path.join(TOP, "Documentation", "netlink", "specs", "mrc.yaml")


def load():
    with open(SPEC, encoding="utf-8") as f:
        return yaml.safe_load(f)


def attr_set(spec, name):
    return next(s for s in spec["attribute-sets"] if s["name"] == name)


def attr(spec, set_name, name):
    return next(a for a in attr_set(spec, set_name)["attributes"] if a["name"] == name)


def op(spec, name):
    return next(o for o in spec["operations"]["list"] if o["name"] == name)


def ops_entry(gen_c, cmd):
    """The genl_ops initializer of @cmd in the generated C."""
    m = re.search(r"\t\{\n\t\t\.cmd\t\t= " + cmd + r",\n(.*?)\n\t\},", gen_c, re.S)
    return m.group(1) if m else None


class GenTest(unittest.TestCase):
    def setUp(self):
        self.spec = load()

    def render(self, spec=None):
        fam = mrc_nl_gen.Family(spec or self.spec)
        fam.check_names()
        return mrc_nl_gen.render_uapi(fam), mrc_nl_gen.render_gen_c(fam)

    def test_committed_files_are_generated_from_spec(self):
        self.assertEqual(mrc_nl_gen.check(self.spec, TOP), [])

    def test_check_finds_stale_and_missing_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            mrc_nl_gen.generate(self.spec, tmp)
            self.assertEqual(mrc_nl_gen.check(self.spec, tmp), [])
            changed = copy.deepcopy(self.spec)
            attr_set(changed, "plane")["attributes"].append({"name": "speed", "type": "u32"})
            self.assertEqual(mrc_nl_gen.check(changed, tmp), [mrc_nl_gen.UAPI, mrc_nl_gen.GEN_C])
            os.unlink(os.path.join(tmp, mrc_nl_gen.GEN_H))
            self.assertIn(mrc_nl_gen.GEN_H, mrc_nl_gen.check(self.spec, tmp))

    def test_main_check_exit_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(mrc_nl_gen.main(["gen", "check", SPEC, tmp]), 1)
            self.assertIn("mrc.h: differs", out.getvalue())
            self.assertEqual(mrc_nl_gen.main(["gen", "gen", SPEC, tmp]), 0)
            self.assertEqual(mrc_nl_gen.main(["gen", "check", SPEC, tmp]), 0)

    def test_uapi_has_no_include(self):
        uapi, _ = self.render()
        self.assertNotIn("#include", uapi)

    def test_uapi_names_and_values(self):
        """ynl-gen-c's names, checked by a C compiler against the spec's values."""
        if not shutil.which("gcc"):
            self.skipTest("no gcc")
        uapi, _ = self.render()
        checks = """
            #ifdef __cplusplus
            #define MRC_ASSERT static_assert
            #else
            #define MRC_ASSERT _Static_assert
            #endif
            MRC_ASSERT(sizeof(MRC_FAMILY_NAME) == 4, "");
            MRC_ASSERT(MRC_FAMILY_VERSION == 1, "");
            MRC_ASSERT(MRC_EV_MAX == 4096 && MRC_EV_MAX_BYTES == 32, "");
            MRC_ASSERT(MRC_EV_STATE_GOOD == 1 && MRC_EV_STATE_ASSUMED_BAD == 2, "");
            MRC_ASSERT(MRC_EV_STATE_DENIED == 4, "");
            MRC_ASSERT(MRC_EV_REASON_NONE == 0 && MRC_EV_REASON_PLANE == 5, "");
            MRC_ASSERT(MRC_EV_FMT_MODE_UDP == 4 && MRC_PROFILE_STATE_ONLINE == 2, "");
            MRC_ASSERT(MRC_A_DEV_INDEX == 1 && MRC_A_DEV_MAX == 8, "");
            MRC_ASSERT(__MRC_A_DEV_MAX == MRC_A_DEV_MAX + 1, "");
            MRC_ASSERT(MRC_A_EV_FIELD_MAX == 4 && MRC_A_EV_FIELD_ATTR_MAX == 5, "");
            MRC_ASSERT(MRC_A_PATH_EV == 5 && MRC_A_EV_RTT_NS == 11, "");
            MRC_ASSERT(MRC_CMD_DEV_GET == 1 && MRC_CMD_EV_EVENT == 18, "");
            MRC_ASSERT(MRC_CMD_QP_STALL_RESET == MRC_CMD_MAX && MRC_CMD_MAX == 19, "");
            static const char grp[] = MRC_MCGRP_EV_EVENTS;
            MRC_ASSERT(sizeof(grp) == sizeof("ev-events"), "");
        """
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "t.c")
            with open(src, "w", encoding="utf-8") as f:
                f.write(uapi + checks)
            for cc, lang in (("gcc", "c"), ("g++", "c++")):
                if not shutil.which(cc):
                    continue
                std = "-std=c11" if lang == "c" else "-std=c++20"
                r = subprocess.run([cc, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", std,
                                    "-x", lang, src], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f"{cc}: {r.stderr}")

    def test_enum_counts_on_from_a_given_value(self):
        spec = copy.deepcopy(self.spec)
        spec["definitions"].append({"type": "enum", "name": "colour",
                                    "entries": ["red", {"name": "green", "value": 5}, "blue"]})
        uapi, _ = self.render(spec)
        self.assertIn("enum mrc_colour {\n\tMRC_COLOUR_RED,\n\tMRC_COLOUR_GREEN = 5,\n"
                      "\tMRC_COLOUR_BLUE,\n};", uapi)

    def test_policy_checks(self):
        _, gen_c = self.render()
        for line in ("[MRC_A_PLANE_ID] = NLA_POLICY_RANGE(NLA_U8, 1, 16),",
                     "[MRC_A_PLANE_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },",
                     "[MRC_A_PATH_DST] = NLA_POLICY_EXACT_LEN(16),",
                     "[MRC_A_EV_BYTES] = { .type = NLA_BINARY, .len = 32, },",
                     "[MRC_A_EV_INDEX] = NLA_POLICY_MAX(NLA_U32, 4095),",
                     "[MRC_A_EV_WEIGHT] = NLA_POLICY_MIN(NLA_U8, 1),",
                     "[MRC_A_EV_STATE] = NLA_POLICY_RANGE(NLA_U32, 1, 4),",
                     "[MRC_A_EV_PROFILE_EVS] = NLA_POLICY_NESTED(mrc_ev_nl_policy),"):
            self.assertIn("\t" + line + "\n", gen_c)
        self.assertNotIn("_PAD]", gen_c)

    def test_wide_bounds_use_full_range(self):
        spec = copy.deepcopy(self.spec)
        attr(spec, "probe", "timeout-ms")["checks"] = {"min": 1, "max": 100000}
        _, gen_c = self.render(spec)
        self.assertIn("static const struct netlink_range_validation mrc_probe_timeout_ms_range = {"
                      "\n\t.min = 1ULL,\n\t.max = 100000ULL,\n};", gen_c)
        self.assertIn("[MRC_A_PROBE_TIMEOUT_MS] = "
                      "NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_probe_timeout_ms_range),", gen_c)

    def test_request_policy_holds_the_request_alone(self):
        _, gen_c = self.render()
        m = re.search(r"mrc_ev_set_nl_policy\[MRC_A_PATH_EV \+ 1\] = \{\n(.*?)\n\};", gen_c, re.S)
        self.assertIsNotNone(m)
        keys = re.findall(r"\[(MRC_A_\w+)\]", m.group(1))
        self.assertEqual(keys, ["MRC_A_PATH_DEV_INDEX", "MRC_A_PATH_PROFILE_ID", "MRC_A_PATH_DST",
                                "MRC_A_PATH_EV"])

    def test_ops_table(self):
        _, gen_c = self.render()
        dev_get = ops_entry(gen_c, "MRC_CMD_DEV_GET")
        self.assertIn(".doit\t\t= mrc_nl_dev_get_doit,", dev_get)
        self.assertIn(".dumpit\t\t= mrc_nl_dev_get_dumpit,", dev_get)
        self.assertNotIn(".flags", dev_get)
        ev_set = ops_entry(gen_c, "MRC_CMD_EV_SET")
        self.assertIn(".flags\t\t= GENL_UNS_ADMIN_PERM,", ev_set)
        self.assertNotIn(".dumpit", ev_set)
        self.assertIsNone(ops_entry(gen_c, "MRC_CMD_EV_EVENT"), "an event is no op")
        self.assertIn(".resv_start_op\t= MRC_CMD_QP_STALL_RESET + 1,", gen_c)
        self.assertIn('[MRC_NLGRP_EV_EVENTS] = '
                      '{ .name = "ev-events", .flags = GENL_MCAST_CAP_NET_ADMIN, },', gen_c)

    def test_op_without_request_attributes_has_no_policy(self):
        """resv_start_op covers it: the core gives it one that refuses every attribute."""
        spec = copy.deepcopy(self.spec)
        del op(spec, "qp-stats-get")["dump"]["request"]
        _, gen_c = self.render(spec)
        entry = ops_entry(gen_c, "MRC_CMD_QP_STATS_GET")
        self.assertNotIn(".policy", entry)
        self.assertNotIn(".maxattr", entry)
        self.assertNotIn("mrc_qp_stats_get_nl_policy", gen_c)

    def test_every_changing_op_needs_admin(self):
        _, gen_c = self.render()
        for o in self.spec["operations"]["list"]:
            if "do" not in o and "dump" not in o:
                continue
            entry = ops_entry(gen_c, "MRC_CMD_" + o["name"].upper().replace("-", "_"))
            self.assertEqual("GENL_UNS_ADMIN_PERM" in entry, "uns-admin-perm" in o.get("flags", []),
                             o["name"])

    def test_name_collision_refused(self):
        spec = copy.deepcopy(self.spec)
        del attr_set(spec, "ev-field")["attr-max-name"]
        del attr_set(spec, "ev-field")["attr-cnt-name"]
        with self.assertRaisesRegex(mrc_nl_gen.SpecError, "MRC_A_EV_FIELD_MAX"):
            self.render(spec)

    def test_unknown_flag_refused(self):
        spec = copy.deepcopy(self.spec)
        op(spec, "ev-set")["flags"] = ["root-only"]
        with self.assertRaisesRegex(mrc_nl_gen.SpecError, "ev-set: unknown flags root-only"):
            self.render(spec)


if __name__ == "__main__":
    unittest.main()
