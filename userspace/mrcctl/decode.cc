// SPDX-License-Identifier: BSD-2-Clause
// decode.cc - replies and events, attribute by attribute; a missing attribute reads as 0.
#include "decode.h"

#include <linux/mrc.h>

namespace mrc::ctl {

DevInfo decode_dev(const AttrView &a) {
    DevInfo d;
    d.index = a.u32(MRC_A_DEV_INDEX).value_or(0);
    d.name = a.str(MRC_A_DEV_NAME);
    d.ev_max = a.u32(MRC_A_DEV_EV_MAX);
    d.profiles_max = a.u32(MRC_A_DEV_PROFILES_MAX);
    d.fmt_modes = a.u32(MRC_A_DEV_FMT_MODES);
    d.ev_modes = a.u32(MRC_A_DEV_EV_MODES);
    d.default_profile = a.u32(MRC_A_DEV_DEFAULT_PROFILE);
    for (const nlattr *n : a.all(MRC_A_DEV_PLANES)) {
        const AttrView p = AttrView::nested(n);
        PlaneInfo pl;
        pl.id = p.u8(MRC_A_PLANE_ID).value_or(0);
        pl.ifindex = p.u32(MRC_A_PLANE_IFINDEX);
        pl.ifname = p.str(MRC_A_PLANE_IFNAME);
        if (const auto up = p.u8(MRC_A_PLANE_ADMIN_UP))
            pl.admin_up = *up != 0;
        d.planes.push_back(std::move(pl));
    }
    return d;
}

PathEv decode_path_ev(const AttrView &a) {
    PathEv r;
    r.dev_index = a.u32(MRC_A_PATH_DEV_INDEX).value_or(0);
    r.profile_id = a.u32(MRC_A_PATH_PROFILE_ID).value_or(0);
    r.dst = a.bytes(MRC_A_PATH_DST);
    r.good = a.u32(MRC_A_PATH_GOOD);
    const AttrView e = AttrView::nested(a.find(MRC_A_PATH_EV));
    r.ev.index = e.u32(MRC_A_EV_INDEX).value_or(0);
    r.ev.bytes = e.bytes(MRC_A_EV_BYTES);
    r.ev.plane = e.u8(MRC_A_EV_PLANE);
    r.ev.weight = e.u8(MRC_A_EV_WEIGHT);
    r.ev.state = e.u32(MRC_A_EV_STATE).value_or(0);
    r.ev.reason = e.u32(MRC_A_EV_REASON).value_or(0);
    r.ev.changed_ns = e.u64(MRC_A_EV_CHANGED_NS).value_or(0);
    r.ev.packets = e.u64(MRC_A_EV_PACKETS).value_or(0);
    r.ev.acked = e.u64(MRC_A_EV_ACKED).value_or(0);
    r.ev.losses = e.u64(MRC_A_EV_LOSSES).value_or(0);
    r.ev.rtt_ns = e.u32(MRC_A_EV_RTT_NS).value_or(0);
    r.ev.data_rtt_ns = e.u32(MRC_A_EV_DATA_RTT_NS).value_or(0);
    r.ev.ce_marks = e.u64(MRC_A_EV_CE_MARKS).value_or(0);
    return r;
}

QpStats decode_qp_stats(const AttrView &a) {
    QpStats q;
    q.dev_index = a.u32(MRC_A_QP_STATS_DEV_INDEX).value_or(0);
    q.qpn = a.u32(MRC_A_QP_STATS_QPN).value_or(0);
    q.profile_id = a.u32(MRC_A_QP_STATS_PROFILE_ID).value_or(0);
    q.packets = a.u64(MRC_A_QP_STATS_PACKETS).value_or(0);
    q.retransmits = a.u64(MRC_A_QP_STATS_RETRANSMITS).value_or(0);
    q.timeouts = a.u64(MRC_A_QP_STATS_TIMEOUTS).value_or(0);
    q.cwnd = a.u32(MRC_A_QP_STATS_CWND).value_or(0);
    q.srtt_ns = a.u32(MRC_A_QP_STATS_SRTT_NS).value_or(0);
    q.base_rtt_ns = a.u32(MRC_A_QP_STATS_BASE_RTT_NS).value_or(0);
    q.in_flight = a.u32(MRC_A_QP_STATS_IN_FLIGHT).value_or(0);
    q.retries = a.u32(MRC_A_QP_STATS_RETRIES).value_or(0);
    q.stall_max_ns = a.u64(MRC_A_QP_STATS_STALL_MAX_NS).value_or(0);
    q.wr_wait_max_ns = a.u64(MRC_A_QP_STATS_WR_WAIT_MAX_NS).value_or(0);
    q.spurious_resends = a.u32(MRC_A_QP_STATS_SPURIOUS_RESENDS).value_or(0);
    q.delay_decreases = a.u32(MRC_A_QP_STATS_DELAY_DECREASES).value_or(0);
    q.loss_decreases = a.u32(MRC_A_QP_STATS_LOSS_DECREASES).value_or(0);
    q.ecn_decreases = a.u32(MRC_A_QP_STATS_ECN_DECREASES).value_or(0);
    q.ecn_path_marks = a.u32(MRC_A_QP_STATS_ECN_PATH_MARKS).value_or(0);
    q.read_cwnd = a.u32(MRC_A_QP_STATS_READ_CWND).value_or(0);
    q.read_delay_decreases = a.u32(MRC_A_QP_STATS_READ_DELAY_DECREASES).value_or(0);
    q.read_ecn_decreases = a.u32(MRC_A_QP_STATS_READ_ECN_DECREASES).value_or(0);
    return q;
}

EvEvent decode_ev_event(const AttrView &a) {
    EvEvent e;
    e.dev_index = a.u32(MRC_A_EV_EVENT_DEV_INDEX).value_or(0);
    e.profile_id = a.u32(MRC_A_EV_EVENT_PROFILE_ID).value_or(0);
    e.dst = a.bytes(MRC_A_EV_EVENT_DST);
    e.ev_index = a.u32(MRC_A_EV_EVENT_EV_INDEX).value_or(0);
    e.from = a.u32(MRC_A_EV_EVENT_FROM).value_or(0);
    e.to = a.u32(MRC_A_EV_EVENT_TO).value_or(0);
    e.reason = a.u32(MRC_A_EV_EVENT_REASON).value_or(0);
    e.time_ns = a.u64(MRC_A_EV_EVENT_TIME_NS).value_or(0);
    return e;
}

FmtProfile decode_fmt_profile(const AttrView &a) {
    FmtProfile f;
    f.dev_index = a.u32(MRC_A_EV_FMT_PROFILE_DEV_INDEX).value_or(0);
    f.id = a.u32(MRC_A_EV_FMT_PROFILE_ID).value_or(0);
    f.mode = a.u32(MRC_A_EV_FMT_PROFILE_MODE).value_or(0);
    f.state = a.u32(MRC_A_EV_FMT_PROFILE_STATE).value_or(0);
    for (const nlattr *n : a.all(MRC_A_EV_FMT_PROFILE_FIELDS))
        f.widths.push_back(AttrView::nested(n).u32(MRC_A_FMT_FIELD_WIDTH).value_or(0));
    return f;
}

EvProfile decode_ev_profile(const AttrView &a) {
    EvProfile p;
    p.dev_index = a.u32(MRC_A_EV_PROFILE_DEV_INDEX).value_or(0);
    p.id = a.u32(MRC_A_EV_PROFILE_ID).value_or(0);
    p.mode = a.u32(MRC_A_EV_PROFILE_MODE).value_or(0);
    p.fmt_id = a.u32(MRC_A_EV_PROFILE_FMT_ID).value_or(0);
    p.state = a.u32(MRC_A_EV_PROFILE_STATE).value_or(0);
    p.count = a.u32(MRC_A_EV_PROFILE_COUNT).value_or(0);
    p.min_active = a.u32(MRC_A_EV_PROFILE_MIN_ACTIVE).value_or(0);
    p.event_mask = a.u32(MRC_A_EV_PROFILE_EVENT_MASK).value_or(0);
    p.policy = a.u32(MRC_A_EV_PROFILE_POLICY).value_or(0);
    for (const nlattr *n : a.all(MRC_A_EV_PROFILE_FIELDS)) {
        const AttrView f = AttrView::nested(n);
        p.fields.push_back(
                {f.u32(MRC_A_EV_FIELD_WIDTH).value_or(0), f.u32(MRC_A_EV_FIELD_INIT).value_or(0),
                 f.u32(MRC_A_EV_FIELD_MIN).value_or(0), f.u32(MRC_A_EV_FIELD_MAX).value_or(0),
                 f.u32(MRC_A_EV_FIELD_MASK).value_or(0)});
    }
    return p;
}

ProbeReply decode_probe(const AttrView &a) {
    ProbeReply r;
    r.dev_index = a.u32(MRC_A_PROBE_DEV_INDEX).value_or(0);
    r.profile_id = a.u32(MRC_A_PROBE_PROFILE_ID).value_or(0);
    r.dst = a.bytes(MRC_A_PROBE_DST);
    for (const nlattr *n : a.all(MRC_A_PROBE_RESULT)) {
        const AttrView res = AttrView::nested(n);
        r.results.push_back({res.u32(MRC_A_PROBE_RESULT_EV_INDEX).value_or(0),
                             res.has(MRC_A_PROBE_RESULT_ANSWERED),
                             res.u32(MRC_A_PROBE_RESULT_RTT_NS).value_or(0)});
    }
    return r;
}

} // namespace mrc::ctl
