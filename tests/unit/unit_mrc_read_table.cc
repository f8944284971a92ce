// Unit tests for core/mrc_read_table.c: which repeated READ_REQs a responder serves.
extern "C" {
#include "mrc_read_table.h"
}

#include <gtest/gtest.h>

#include <cstdint>

namespace {

constexpr uint32_t kMtu = 1024;

// A READ of 64 KiB (64 responses) whose first response is PSN 1000.
mrc_read_ask whole_read() {
    mrc_read_ask ask{};
    ask.va = 0x7f0000001000ULL;
    ask.psn = 1000;
    ask.msn = 7;
    ask.rkey = 0x303;
    ask.msg_len = 64 * kMtu;
    ask.offset = 0;
    ask.len = 64 * kMtu;
    return ask;
}

// The request for response @index alone, as the requester resends it.
mrc_read_ask one_response(const mrc_read_ask &read, uint32_t index) {
    mrc_read_ask ask = read;
    ask.psn = read.psn + index;
    ask.offset = index * kMtu;
    ask.len = kMtu;
    return ask;
}

class ReadTable : public ::testing::Test {
protected:
    void SetUp() override { mrc_read_table_init(&table); }
    mrc_read_table table{};
};

TEST_F(ReadTable, unknown_message_is_not_served) {
    const mrc_read_ask read = whole_read();
    EXPECT_FALSE(mrc_read_table_covers(&table, &read, kMtu));
}

TEST_F(ReadTable, a_response_of_a_noted_message_is_served) {
    const mrc_read_ask read = whole_read();
    mrc_read_table_note(&table, &read, kMtu);
    for (const uint32_t index : {0U, 1U, 31U, 63U}) {
        const mrc_read_ask again = one_response(read, index);
        EXPECT_TRUE(mrc_read_table_covers(&table, &again, kMtu)) << index;
    }
    EXPECT_TRUE(mrc_read_table_covers(&table, &read, kMtu));
}

TEST_F(ReadTable, a_later_chunk_describes_the_message_too) {
    // the message's first READ_REQ was lost: its second chunk arrives first
    const mrc_read_ask chunk = one_response(whole_read(), 40);
    mrc_read_table_note(&table, &chunk, kMtu);
    const mrc_read_ask first = one_response(whole_read(), 0);
    EXPECT_TRUE(mrc_read_table_covers(&table, &first, kMtu));
}

TEST_F(ReadTable, forged_duplicates_are_not_served) {
    const mrc_read_ask read = whole_read();
    mrc_read_table_note(&table, &read, kMtu);

    mrc_read_ask ask = one_response(read, 3);
    ask.va += 4096; // other memory
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 3);
    ask.rkey ^= 1;
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 3);
    ask.msg_len = 0x80000000U; // a longer message
    ask.len = 0x7fffffffU;
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 63);
    ask.len = 2 * kMtu; // past the message's end
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 3);
    ask.psn += 1; // bytes at a PSN that does not carry them
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 3);
    ask.offset += 8; // not a packet boundary
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
    ask = one_response(read, 3);
    ask.msn += 1;
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
}

TEST_F(ReadTable, the_first_request_of_a_message_describes_it) {
    const mrc_read_ask read = whole_read();
    mrc_read_table_note(&table, &read, kMtu);
    mrc_read_ask other = read;
    other.va = 0x1000;
    other.psn = 5000;
    mrc_read_table_note(&table, &other, kMtu);
    EXPECT_FALSE(mrc_read_table_covers(&table, &other, kMtu));
    EXPECT_TRUE(mrc_read_table_covers(&table, &read, kMtu));
}

TEST_F(ReadTable, inconsistent_requests_are_not_noted) {
    mrc_read_ask ask = whole_read();
    ask.offset = 100;
    mrc_read_table_note(&table, &ask, kMtu);
    ask.offset = 0;
    EXPECT_FALSE(mrc_read_table_covers(&table, &ask, kMtu));
}

TEST_F(ReadTable, the_newest_messages_stay) {
    mrc_read_ask read = whole_read();
    // a full table of outstanding READs, then one more: the oldest MSN goes
    for (uint32_t i = 0; i <= MRC_READ_TABLE_MSGS; i++) {
        read.msn = 0xffffffc0U + i; // across the MSN wrap
        read.psn = 100 * i;
        mrc_read_table_note(&table, &read, kMtu);
    }
    read.msn = 0xffffffc0U;
    read.psn = 0;
    EXPECT_FALSE(mrc_read_table_covers(&table, &read, kMtu));
    for (uint32_t i = 1; i <= MRC_READ_TABLE_MSGS; i++) {
        read.msn = 0xffffffc0U + i;
        read.psn = 100 * i;
        EXPECT_TRUE(mrc_read_table_covers(&table, &read, kMtu)) << i;
    }
    // a message older than all of them is not worth an entry
    read.msn = 0xffffffc0U - 5;
    read.psn = 77;
    mrc_read_table_note(&table, &read, kMtu);
    EXPECT_FALSE(mrc_read_table_covers(&table, &read, kMtu));
}

TEST_F(ReadTable, zero_length_read) {
    mrc_read_ask read = whole_read();
    read.msg_len = 0;
    read.len = 0;
    mrc_read_table_note(&table, &read, kMtu);
    EXPECT_TRUE(mrc_read_table_covers(&table, &read, kMtu));
}

} // namespace
