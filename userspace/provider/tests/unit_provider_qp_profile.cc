// SPDX-License-Identifier: BSD-2-Clause
// Unit tests for qp_profile.h: MRC_EV_PROFILE as the provider reads it, and the MRC attributes
// of mrcdv_create_qp() over it.
#include "qp_profile.h"

#include <cerrno>

#include <gtest/gtest.h>

namespace {

TEST(QpProfileFromEnv, UnsetNamesNone) {
    const mrc_qp_profile p = mrc_qp_profile_from_env(nullptr);
    EXPECT_FALSE(p.named);
    EXPECT_FALSE(p.bad);
}

TEST(QpProfileFromEnv, ADecimalIdNamesThatProfile) {
    for (const auto &[text, id] :
         {std::pair{"0", 0U}, {"3", 3U}, {"15", 15U}, {"4294967295", 4294967295U}}) {
        const mrc_qp_profile p = mrc_qp_profile_from_env(text);
        EXPECT_TRUE(p.named) << text;
        EXPECT_FALSE(p.bad) << text;
        EXPECT_EQ(p.id, id) << text;
    }
}

// Out-of-range ids are named as they are: the kernel refuses them with a reason of its own.
TEST(QpProfileFromEnv, AnythingElseIsBad) {
    for (const char *text : {"", "one", "-1", "+1", " 1", "1 ", "1x", "0x1", "4294967296"}) {
        const mrc_qp_profile p = mrc_qp_profile_from_env(text);
        EXPECT_TRUE(p.bad) << '"' << text << '"';
        EXPECT_FALSE(p.named) << '"' << text << '"';
    }
}

TEST(QpProfileFromAttr, NoAttributesKeepTheEnvironmentsChoice) {
    const mrc_qp_profile env = mrc_qp_profile_from_env("2");
    mrc_qp_profile out{};
    ASSERT_EQ(mrc_qp_profile_from_attr(nullptr, env, &out), 0);
    EXPECT_TRUE(out.named);
    EXPECT_EQ(out.id, 2U);

    const mrcdv_qp_init_attr none{};
    out = {};
    ASSERT_EQ(mrc_qp_profile_from_attr(&none, env, &out), 0);
    EXPECT_TRUE(out.named);
    EXPECT_EQ(out.id, 2U);

    // a bad environment stays bad, so the QP fails as an ibv_create_qp one would
    ASSERT_EQ(mrc_qp_profile_from_attr(&none, mrc_qp_profile_from_env("x"), &out), 0);
    EXPECT_TRUE(out.bad);
}

TEST(QpProfileFromAttr, ANamedProfileWinsOverTheEnvironment) {
    mrcdv_qp_init_attr attr{};
    attr.comp_mask = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE;
    attr.ev_profile_id = 0; // profile 0 by name, not "the default"
    for (const char *env : {static_cast<const char *>(nullptr), "7", "bad"}) {
        mrc_qp_profile out{};
        ASSERT_EQ(mrc_qp_profile_from_attr(&attr, mrc_qp_profile_from_env(env), &out), 0);
        EXPECT_TRUE(out.named);
        EXPECT_FALSE(out.bad);
        EXPECT_EQ(out.id, 0U);
    }
}

TEST(QpProfileFromAttr, UnknownAttributesAreRefused) {
    mrcdv_qp_init_attr attr{};
    attr.comp_mask = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE | (1ULL << 1);
    mrc_qp_profile out{};
    EXPECT_EQ(mrc_qp_profile_from_attr(&attr, {}, &out), EINVAL);
    attr.comp_mask = 1ULL << 63;
    EXPECT_EQ(mrc_qp_profile_from_attr(&attr, {}, &out), EINVAL);
    attr.comp_mask = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE;
    attr.reserved = 1;
    EXPECT_EQ(mrc_qp_profile_from_attr(&attr, {}, &out), EINVAL);
}

} // namespace
