// SPDX-License-Identifier: BSD-2-Clause
// mrc_verbs_probe - open an RDMA device through libibverbs and exercise the control path one
// object at a time, printing one line per step:
//
//     mrc_verbs_probe DEVICE [STEP...]     steps: pd (default), cq, srq, flush, qp,
//                                          qp-profile=ID[,HOLD]
//
//     pd     allocate a protection domain
//     cq     create a completion queue, resize it
//     srq    create a shared receive queue, post a receive, query and modify it
//     flush  an RC QP's rings end to end: post receives, move the QP to ERR, post a send,
//            resize the CQ under the pending completions, poll them all back (WR_FLUSH_ERR)
//     qp     create an RC QP with ibv_create_qp (bound to $MRC_EV_PROFILE if that is set)
//     qp-profile=ID[,HOLD]
//            create an RC QP bound to EV profile ID with mrcdv_create_qp (mrcdv.h); with HOLD,
//            keep it HOLD seconds (a line "holding" says when it exists) before destroying it
//     ex     the extended verbs' create calls: a CQ from ibv_create_cq_ex (empty: ibv_start_poll
//            says ENOENT) and an RC QP with every RC opcode's send_ops_flags (ibv_qp_to_qp_ex
//            finds its ibv_wr_* ops; a plain QP has none) are made; what mrc does not carry is
//            refused with EOPNOTSUPP, one line "refused ...: ok" each
//
//     open mrcst0: ok
//     alloc_pd: ok
//     create_cq: error 95 (Operation not supported)
//
// Exit status: 0 when every step worked, 1 when one failed (it stops there), 2 for bad usage or
// no such device. The selftests use it where ibv_devinfo does not reach.
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <infiniband/mrcdv.h>
#include <infiniband/verbs.h>

#include "tool_verbs.h"
#include "tool_verbs_ex.h"

namespace {

using mrc::tool::Context;
using mrc::tool::Cq;
using mrc::tool::DeviceList;
using mrc::tool::Mr;
using mrc::tool::Pd;
using mrc::tool::Qp;
using mrc::tool::Srq;

bool report(const char *step, bool ok, int err) {
    if (ok)
        std::printf("%s: ok\n", step);
    else
        std::printf("%s: error %d (%s)\n", step, err, std::strerror(err));
    return ok;
}

ibv_device *find_device(std::span<ibv_device *> devices, std::string_view name) {
    for (ibv_device *dev : devices)
        if (name == ibv_get_device_name(dev))
            return dev;
    return nullptr;
}

bool step_pd(ibv_context *ctx) {
    errno = 0;
    const Pd pd(ibv_alloc_pd(ctx));
    return report("alloc_pd", pd != nullptr, errno);
}

bool step_cq(ibv_context *ctx) {
    errno = 0;
    const Cq cq(ibv_create_cq(ctx, 16, nullptr, nullptr, 0));
    if (!report("create_cq", cq != nullptr, errno))
        return false;
    const int err = ibv_resize_cq(cq.get(), 100);
    if (!report("resize_cq", err == 0, err))
        return false;
    std::printf("cq entries: %d\n", cq->cqe);
    return cq->cqe >= 100;
}

bool step_srq(ibv_context *ctx) {
    errno = 0;
    const Pd pd(ibv_alloc_pd(ctx));
    if (!report("alloc_pd", pd != nullptr, errno))
        return false;
    ibv_srq_init_attr init{};
    init.attr.max_wr = 8;
    init.attr.max_sge = 1;
    errno = 0;
    const Srq srq(ibv_create_srq(pd.get(), &init));
    if (!report("create_srq", srq != nullptr, errno))
        return false;
    ibv_recv_wr wr{};
    ibv_recv_wr *bad = nullptr;
    wr.wr_id = 1;
    int err = ibv_post_srq_recv(srq.get(), &wr, &bad);
    if (!report("post_srq_recv", err == 0, err))
        return false;
    ibv_srq_attr attr{};
    err = ibv_query_srq(srq.get(), &attr);
    if (!report("query_srq", err == 0, err))
        return false;
    std::printf("srq max_wr %u max_sge %u\n", attr.max_wr, attr.max_sge);
    attr.srq_limit = 1;
    err = ibv_modify_srq(srq.get(), &attr, IBV_SRQ_LIMIT);
    return report("modify_srq", err == 0, err);
}

int modify_qp_state(ibv_qp *qp, ibv_qp_state state) {
    ibv_qp_attr attr{};
    attr.qp_state = state;
    int mask = IBV_QP_STATE;
    if (state == IBV_QPS_INIT) {
        attr.port_num = 1;
        attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE;
        mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    }
    return ibv_modify_qp(qp, &attr, mask);
}

// The attributes of a small RC QP on @pd whose completions all go to @cq.
ibv_qp_init_attr_ex small_rc_qp(ibv_pd *pd, ibv_cq *cq) {
    ibv_qp_init_attr_ex init{};
    init.send_cq = cq;
    init.recv_cq = cq;
    init.qp_type = IBV_QPT_RC;
    init.cap = {.max_send_wr = 4,
                .max_recv_wr = 4,
                .max_send_sge = 1,
                .max_recv_sge = 1,
                .max_inline_data = 0};
    init.comp_mask = IBV_QP_INIT_ATTR_PD;
    init.pd = pd;
    return init;
}

bool step_flush(ibv_context *ctx) {
    errno = 0;
    const Pd pd(ibv_alloc_pd(ctx));
    if (!report("alloc_pd", pd != nullptr, errno))
        return false;
    std::vector<char> buf(4096);
    const int access = IBV_ACCESS_LOCAL_WRITE; // an int: ibv_reg_mr() mixes enum types
    errno = 0;
    const Mr mr(ibv_reg_mr(pd.get(), buf.data(), buf.size(), access));
    if (!report("reg_mr", mr != nullptr, errno))
        return false;
    errno = 0;
    const Cq cq(ibv_create_cq(ctx, 8, nullptr, nullptr, 0));
    if (!report("create_cq", cq != nullptr, errno))
        return false;
    ibv_qp_init_attr_ex init = small_rc_qp(pd.get(), cq.get());
    errno = 0;
    const Qp qp(ibv_create_qp_ex(ctx, &init));
    if (!report("create_qp", qp != nullptr, errno))
        return false;
    int err = modify_qp_state(qp.get(), IBV_QPS_INIT);
    if (!report("modify_qp INIT", err == 0, err))
        return false;

    ibv_sge sge{
            .addr = reinterpret_cast<std::uintptr_t>(buf.data()), .length = 64, .lkey = mr->lkey};
    std::array<ibv_recv_wr, 2> rwr{};
    rwr[0] = {.wr_id = 100, .next = &rwr[1], .sg_list = &sge, .num_sge = 1};
    rwr[1] = {.wr_id = 101, .next = nullptr, .sg_list = &sge, .num_sge = 1};
    ibv_recv_wr *bad_recv = nullptr;
    err = ibv_post_recv(qp.get(), rwr.data(), &bad_recv);
    if (!report("post_recv", err == 0, err))
        return false;
    err = modify_qp_state(qp.get(), IBV_QPS_ERR);
    if (!report("modify_qp ERR", err == 0, err))
        return false;
    ibv_send_wr swr{};
    swr.wr_id = 200;
    swr.sg_list = &sge;
    swr.num_sge = 1;
    swr.opcode = IBV_WR_SEND;
    swr.send_flags = IBV_SEND_SIGNALED;
    ibv_send_wr *bad_send = nullptr;
    err = ibv_post_send(qp.get(), &swr, &bad_send);
    if (!report("post_send", err == 0, err))
        return false;
    err = ibv_resize_cq(cq.get(), 64);
    if (!report("resize_cq", err == 0, err))
        return false;

    const std::vector<ibv_wc> wcs =
            mrc::tool::poll_completions(cq.get(), 3, std::chrono::seconds(2));
    const std::vector<ibv_wc> extra =
            mrc::tool::poll_completions(cq.get(), 1, std::chrono::milliseconds(1));
    bool ok = wcs.size() == 3 && extra.empty();
    for (const ibv_wc &wc : wcs) {
        std::printf("wc wr_id %llu status %s opcode %d qp_num %s\n",
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                    wc.opcode, wc.qp_num == qp->qp_num ? "ok" : "wrong");
        ok = ok && wc.status == IBV_WC_WR_FLUSH_ERR && wc.qp_num == qp->qp_num;
    }
    ok = ok && wcs[0].wr_id == 100 && wcs[0].opcode == IBV_WC_RECV && wcs[1].wr_id == 101 &&
         wcs[2].wr_id == 200 && wcs[2].opcode == IBV_WC_SEND;
    return report("poll_cq flushed", ok, EPROTO);
}

// An RC QP made by plain verbs or, with @profile, by the direct verbs bound to that EV profile.
bool step_qp(ibv_context *ctx, const char *profile) {
    const Pd pd(ibv_alloc_pd(ctx));
    const Cq cq(ibv_create_cq(ctx, 8, nullptr, nullptr, 0));
    if (!report("alloc_pd, create_cq", pd && cq, errno))
        return false;
    ibv_qp_init_attr_ex init = small_rc_qp(pd.get(), cq.get());
    errno = 0;
    if (!profile) {
        const Qp qp(ibv_create_qp_ex(ctx, &init));
        return report("create_qp", qp != nullptr, errno);
    }
    if (!report("mrcdv_is_supported", mrcdv_is_supported(ctx->device), EOPNOTSUPP))
        return false;
    char *end = nullptr;
    mrcdv_qp_init_attr mrc{};
    mrc.comp_mask = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE;
    mrc.ev_profile_id = static_cast<std::uint32_t>(std::strtoul(profile, &end, 10));
    unsigned long hold = 0;
    if (end == profile || (*end != '\0' && *end != ',')) {
        std::fprintf(stderr, "mrc_verbs_probe: bad profile id in qp-profile=%s\n", profile);
        return false;
    }
    if (*end == ',') {
        const char *hold_text = end + 1;
        hold = std::strtoul(hold_text, &end, 10);
        if (end == hold_text || *end != '\0') {
            std::fprintf(stderr, "mrc_verbs_probe: bad hold in qp-profile=%s\n", profile);
            return false;
        }
    }
    const std::string_view id(profile, std::strcspn(profile, ","));
    const std::string step = "mrcdv_create_qp profile " + std::string(id);
    const Qp qp(mrcdv_create_qp(ctx, &init, &mrc));
    if (!report(step.c_str(), qp != nullptr, errno))
        return false;
    if (hold != 0) {
        std::printf("holding QP %u for %lu s\n", qp->qp_num, hold);
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::seconds(hold));
    }
    return true;
}

// @what was refused with EOPNOTSUPP (and made nothing).
bool refused(const char *what, bool made, int err) {
    const bool ok = !made && err == EOPNOTSUPP;
    std::printf("refused %s: %s (%s)\n", what, ok ? "ok" : "NO",
                made ? "made" : std::strerror(err));
    return ok;
}

// An ibv_create_qp_ex of @pd's small RC QP with @send_ops (comp_mask bits @mask besides the PD).
Qp create_qp_ex(ibv_pd *pd, ibv_cq *cq, std::uint32_t mask, std::uint64_t send_ops) {
    ibv_qp_init_attr_ex init = small_rc_qp(pd, cq);
    init.comp_mask |= mask;
    init.send_ops_flags = send_ops;
    errno = 0;
    return Qp(ibv_create_qp_ex(pd->context, &init));
}

bool step_ex(ibv_context *ctx) {
    const Pd pd(ibv_alloc_pd(ctx));
    if (!report("alloc_pd", pd != nullptr, errno))
        return false;
    ibv_cq_init_attr_ex cq_attr{};
    cq_attr.cqe = 16;
    cq_attr.wc_flags = mrc::tool::kWcExFlags;
    errno = 0;
    ibv_cq_ex *cqx = ibv_create_cq_ex(ctx, &cq_attr);
    const Cq cq(cqx ? ibv_cq_ex_to_cq(cqx) : nullptr);
    if (!report("create_cq_ex", cq != nullptr, errno))
        return false;
    ibv_poll_cq_attr poll{};
    const int polled = ibv_start_poll(cqx, &poll);
    if (!report("start_poll empty", polled == ENOENT, polled))
        return false;

    const Qp qp = create_qp_ex(pd.get(), cq.get(), IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
                               mrc::tool::kRcSendOps);
    if (!report("create_qp_ex", qp != nullptr, errno))
        return false;
    if (!report("qp_to_qp_ex", ibv_qp_to_qp_ex(qp.get()) != nullptr, EINVAL))
        return false;
    const Qp plain = create_qp_ex(pd.get(), cq.get(), 0, 0);
    if (!report("plain qp has no qp_ex", plain && ibv_qp_to_qp_ex(plain.get()) == nullptr, errno))
        return false;

    bool ok = true;
    for (const std::uint64_t op : {IBV_QP_EX_WITH_BIND_MW, IBV_QP_EX_WITH_LOCAL_INV,
                                   IBV_QP_EX_WITH_SEND_WITH_INV, IBV_QP_EX_WITH_TSO}) {
        const Qp bad = create_qp_ex(pd.get(), cq.get(), IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
                                    IBV_QP_EX_WITH_SEND | op);
        const std::string what = "send op " + std::to_string(op);
        ok = refused(what.c_str(), bad != nullptr, errno) && ok;
    }
    const Qp flags = create_qp_ex(pd.get(), cq.get(), IBV_QP_INIT_ATTR_CREATE_FLAGS, 0);
    ok = refused("create flags", flags != nullptr, errno) && ok;
    cq_attr.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
    errno = 0;
    ibv_cq_ex *stamped = ibv_create_cq_ex(ctx, &cq_attr);
    const Cq stamped_cq(stamped ? ibv_cq_ex_to_cq(stamped) : nullptr);
    ok = refused("completion timestamps", stamped != nullptr, errno) && ok;
    return ok;
}

} // namespace

int main(int argc, char **argv) {
    const std::span<char *> args(argv, static_cast<std::size_t>(argc));
    if (args.size() < 2) {
        std::fprintf(
                stderr,
                "usage: mrc_verbs_probe DEVICE [pd|cq|srq|flush|qp|qp-profile=ID[,HOLD]|ex]...\n");
        return 2;
    }
    int num = 0;
    const DeviceList list(ibv_get_device_list(&num));
    ibv_device *dev =
            list ? find_device({list.get(), static_cast<std::size_t>(num)}, args[1]) : nullptr;
    if (!dev) {
        std::fprintf(stderr, "mrc_verbs_probe: no RDMA device %s\n", args[1]);
        return 2;
    }
    errno = 0;
    const Context ctx(ibv_open_device(dev));
    const std::string opened = std::string("open ") + args[1];
    if (!report(opened.c_str(), ctx != nullptr, errno))
        return 1;

    const std::span<char *> steps = args.size() > 2 ? args.subspan(2) : std::span<char *>{};
    if (steps.empty())
        return step_pd(ctx.get()) ? 0 : 1;
    for (const std::string_view step : steps) {
        bool ok = false;
        if (step == "pd") {
            ok = step_pd(ctx.get());
        } else if (step == "cq") {
            ok = step_cq(ctx.get());
        } else if (step == "srq") {
            ok = step_srq(ctx.get());
        } else if (step == "flush") {
            ok = step_flush(ctx.get());
        } else if (step == "qp") {
            ok = step_qp(ctx.get(), nullptr);
        } else if (step == "ex") {
            ok = step_ex(ctx.get());
        } else if (step.starts_with("qp-profile=")) {
            ok = step_qp(ctx.get(), step.data() + std::strlen("qp-profile="));
        } else {
            std::fprintf(stderr, "mrc_verbs_probe: unknown step %s\n", step.data());
            return 2;
        }
        if (!ok)
            return 1;
    }
    return 0;
}
