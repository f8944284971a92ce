// SPDX-License-Identifier: BSD-2-Clause
// tool_ring.cc - finding and ringing the rings mrc.ko maps into a process (tool_ring.h).
#include "tool_ring.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <rdma/ib_user_verbs.h>
#include <unistd.h>

namespace mrc::tool {

std::vector<Mapping> uverbs_mappings() {
    std::vector<Mapping> out;
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        if (line.find("uverbs") == std::string::npos)
            continue;
        Mapping m;
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        char dash = 0;
        std::istringstream in(line);
        in >> std::hex >> begin >> dash >> end;
        // NOLINTNEXTLINE(performance-no-int-to-ptr): /proc/self/maps names addresses as numbers
        m.base = reinterpret_cast<std::byte *>(begin);
        m.size = end - begin;
        out.push_back(m);
    }
    return out;
}

namespace {

std::uint64_t wr_id_at(const std::byte *p) {
    std::uint64_t v = 0;
    static_assert(offsetof(mrc_send_wqe, wr_id) == 0 && offsetof(mrc_recv_wqe, wr_id) == 0);
    std::memcpy(&v, p, sizeof(v));
    return v;
}

} // namespace

std::optional<Ring> find_work_ring(std::uint64_t id) {
    for (const Mapping &m : uverbs_mappings()) {
        std::byte *base = m.base;
        const std::size_t size = m.size;
        if (size <= MRC_RING_SLOTS_OFFSET + sizeof(mrc_send_wqe) ||
            wr_id_at(base + MRC_RING_SLOTS_OFFSET) != id)
            continue;
        for (std::size_t off = 16; MRC_RING_SLOTS_OFFSET + off + 8 <= size; off += 16)
            if (wr_id_at(base + MRC_RING_SLOTS_OFFSET + off) == id + 1)
                return Ring{base, size, static_cast<std::uint32_t>(off)};
    }
    return std::nullopt;
}

int ring_doorbell(ibv_qp *qp) {
    struct {
        ib_uverbs_cmd_hdr hdr;
        ib_uverbs_post_send cmd;
    } req{};
    ib_uverbs_post_send_resp resp{};
    req.hdr.command = IB_USER_VERBS_CMD_POST_SEND;
    req.hdr.in_words = sizeof(req) / 4;
    req.hdr.out_words = sizeof(resp) / 4;
    req.cmd.response = reinterpret_cast<std::uintptr_t>(&resp);
    req.cmd.qp_handle = qp->handle;
    req.cmd.wqe_size = sizeof(ib_uverbs_send_wr);
    return write(qp->context->cmd_fd, &req, sizeof(req)) == static_cast<ssize_t>(sizeof(req))
                   ? 0
                   : errno;
}

} // namespace mrc::tool
