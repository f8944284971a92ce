// SPDX-License-Identifier: BSD-2-Clause
// Host tests of request.h: how many bytes a request's attributes take on the wire, which is
// what mrcctl allocates its netlink message by.
#include "request.h"

#include <gtest/gtest.h>

#include <vector>

namespace mrc::ctl {
namespace {

TEST(request, attr_wire_sizes_count_header_and_padding) {
    EXPECT_EQ(attr_wire_size(Attr::u8(1, 7)), 8U);   // 4 + 1, padded to 8
    EXPECT_EQ(attr_wire_size(Attr::u32(1, 7)), 8U);  // 4 + 4
    EXPECT_EQ(attr_wire_size(Attr::u64(1, 7)), 12U); // 4 + 8
    EXPECT_EQ(attr_wire_size(Attr::flag(1)), 4U);
    EXPECT_EQ(attr_wire_size(Attr::string(1, "ab")), 8U); // 4 + 3 with the NUL
    const std::vector<std::uint8_t> sixteen(16, 0xfc);
    EXPECT_EQ(attr_wire_size(Attr::binary(1, sixteen)), 20U);
    EXPECT_EQ(attr_wire_size(Attr::nest(1, {Attr::u32(2, 1), Attr::binary(3, sixteen)})),
              4U + 8U + 20U);
    EXPECT_EQ(attr_wire_size(Attr::nest(1, {})), 4U);
}

// 4096 SRv6 EVs, each a nest of its 16 bytes and a plane: far beyond one page.
TEST(request, a_profile_of_4096_evs_is_sized_whole) {
    const std::vector<std::uint8_t> sid(16, 0xfc);
    std::vector<Attr> evs;
    evs.reserve(4096);
    for (int i = 0; i < 4096; i++)
        evs.push_back(Attr::nest(1, {Attr::binary(2, sid), Attr::u32(3, 1)}));
    Request req;
    req.add(Attr::u32(4, 1));
    req.add(Attr::nest(5, std::move(evs)));
    EXPECT_EQ(request_wire_size(req), 8U + 4U + 4096U * (4U + 20U + 8U));
}

} // namespace
} // namespace mrc::ctl
