// SPDX-License-Identifier: BSD-2-Clause
// parse_profile.cc - the ev-fmt-profile and ev-profile objects.
#include "names.h"
#include "parse_common.h"

#include <array>

namespace mrc::ctl {

namespace {

constexpr std::size_t fields_max = MRC_FIELDS_MAX;

std::uint32_t any_u32(std::string_view word, std::string_view what) {
    return parse_u32(word, 0, UINT32_MAX, what);
}

void too_many_fields(const Request &r, std::uint16_t type, std::string_view command) {
    if (count_attr(r.attrs, type) >= fields_max)
        throw UsageError(std::string(command) + ": more than 8 fields");
}

// ---- ev-fmt-profile ----

enum class FmtCmd : std::uint8_t { New, Set, Show, Del };

Invocation fmt_profile(Args &args, FmtCmd which) {
    static constexpr std::array<std::string_view, 4> cmd_names{
            "ev-fmt-profile add", "ev-fmt-profile set", "ev-fmt-profile show",
            "ev-fmt-profile del"};
    const std::string_view name = cmd_names.at(static_cast<std::size_t>(which));
    Invocation inv;
    switch (which) {
    case FmtCmd::New:
        inv = invocation(Action::Change, MRC_CMD_EV_FMT_PROFILE_NEW, false);
        break;
    case FmtCmd::Set:
        inv = invocation(Action::Change, MRC_CMD_EV_FMT_PROFILE_SET, false);
        break;
    case FmtCmd::Show:
        inv = invocation(Action::FmtShow, MRC_CMD_EV_FMT_PROFILE_GET, true);
        break;
    case FmtCmd::Del:
        inv = invocation(Action::Change, MRC_CMD_EV_FMT_PROFILE_DEL, false);
        break;
    }
    KeywordLoop kw(args, name);
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_EV_FMT_PROFILE_DEV_INDEX);
        } else if (k == "id") {
            kw.once(k);
            inv.request.add(Attr::u32(MRC_A_EV_FMT_PROFILE_ID, any_u32(kw.value(k), "id")));
        } else if (k == "mode" && which == FmtCmd::New) {
            kw.once(k);
            inv.request.add(Attr::u32(MRC_A_EV_FMT_PROFILE_MODE,
                                      parse_keyword(kw.value(k), names::ev_fmt_mode, "mode")));
        } else if (k == "state" && which == FmtCmd::Set) {
            kw.once(k);
            inv.request.add(Attr::u32(MRC_A_EV_FMT_PROFILE_STATE,
                                      parse_keyword(kw.value(k), names::profile_state, "state")));
        } else if (k == "width" && (which == FmtCmd::New || which == FmtCmd::Set)) {
            too_many_fields(inv.request, MRC_A_EV_FMT_PROFILE_FIELDS, name);
            const auto width = parse_u32(kw.value(k), 1, 32, "field width");
            inv.request.add(Attr::nest(MRC_A_EV_FMT_PROFILE_FIELDS,
                                       {Attr::u32(MRC_A_FMT_FIELD_WIDTH, width)}));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    if (which != FmtCmd::Show)
        kw.require("id", "N");
    if (which == FmtCmd::New)
        kw.require("mode", "stev|srv6|udp");
    if (which == FmtCmd::Set && !kw.seen("state") && !inv.request.find(MRC_A_EV_FMT_PROFILE_FIELDS))
        throw UsageError("ev-fmt-profile set: nothing to change (state or width)");
    if (which == FmtCmd::Show && kw.seen("id"))
        inv.request.dump = false;
    return inv;
}

Invocation fmt_add(Args &a) {
    return fmt_profile(a, FmtCmd::New);
}
Invocation fmt_set(Args &a) {
    return fmt_profile(a, FmtCmd::Set);
}
Invocation fmt_show(Args &a) {
    return fmt_profile(a, FmtCmd::Show);
}
Invocation fmt_del(Args &a) {
    return fmt_profile(a, FmtCmd::Del);
}

constexpr std::array fmt_commands{Command{"add", fmt_add}, Command{"set", fmt_set},
                                  Command{"show", fmt_show}, Command{"list", fmt_show},
                                  Command{"del", fmt_del}};

// ---- ev-profile ----

enum class ProfCmd : std::uint8_t { New, Set, Show, Del };

// ev BYTES [plane P] [weight W]: one explicit EV, the next in the array.
Attr explicit_ev(KeywordLoop &kw, std::uint32_t index) {
    std::vector<Attr> ev{Attr::u32(MRC_A_EV_INDEX, index),
                         Attr::binary(MRC_A_EV_BYTES, parse_ev_bytes(kw.value("ev")))};
    Args &args = kw.args();
    while (args.peek() == "plane" || args.peek() == "weight") {
        const std::string_view k = args.next("");
        const bool plane = k == "plane";
        const std::uint16_t type = plane ? MRC_A_EV_PLANE : MRC_A_EV_WEIGHT;
        if (find_attr(ev, type))
            throw UsageError("ev " + std::to_string(index) + ": " + std::string(k) +
                             " given twice");
        ev.push_back(Attr::u8(
                type, static_cast<std::uint8_t>(plane ? parse_u32(kw.value(k), 1, 16, "plane")
                                                      : parse_u32(kw.value(k), 1, 255, "weight"))));
    }
    return Attr::nest(MRC_A_EV_PROFILE_EVS, std::move(ev));
}

// field width W [init I] [min I] [max I] [mask I]
Attr generated_field(KeywordLoop &kw) {
    Args &args = kw.args();
    if (args.next("field width") != "width")
        throw UsageError("field: expected 'width W' first");
    std::vector<Attr> f{
            Attr::u32(MRC_A_EV_FIELD_WIDTH, parse_u32(kw.value("width"), 1, 32, "field width"))};
    static constexpr std::array<std::pair<std::string_view, std::uint16_t>, 4> subs{
            {{"init", MRC_A_EV_FIELD_INIT},
             {"min", MRC_A_EV_FIELD_MIN},
             {"max", MRC_A_EV_FIELD_MAX},
             {"mask", MRC_A_EV_FIELD_MASK}}};
    for (bool more = true; more;) {
        more = false;
        for (const auto &[name, type] : subs) {
            if (args.peek() != name)
                continue;
            args.next("");
            if (find_attr(f, type))
                throw UsageError("field: " + std::string(name) + " given twice");
            f.push_back(Attr::u32(type, any_u32(kw.value(name), "field " + std::string(name))));
            more = true;
        }
    }
    return Attr::nest(MRC_A_EV_PROFILE_FIELDS, std::move(f));
}

void check_profile_shape(const Invocation &inv, ProfCmd which) {
    const Request &r = inv.request;
    const std::size_t evs = count_attr(r.attrs, MRC_A_EV_PROFILE_EVS);
    const std::size_t fields = count_attr(r.attrs, MRC_A_EV_PROFILE_FIELDS);
    if (evs > MRC_EV_MAX)
        throw UsageError("ev-profile: more than 4096 EVs");
    if (fields > fields_max)
        throw UsageError("ev-profile: more than 8 fields");
    if (which != ProfCmd::New)
        return;
    const Attr *mode = r.find(MRC_A_EV_PROFILE_MODE);
    if (!mode)
        throw UsageError("ev-profile add: missing mode auto|exp|gen");
    if (mode->num == MRC_EV_MODE_EXP && (evs == 0 || fields > 0))
        throw UsageError("ev-profile add: mode exp takes ev BYTES ..., and no field");
    if (mode->num == MRC_EV_MODE_GEN && (fields == 0 || evs > 0))
        throw UsageError("ev-profile add: mode gen takes field width W ..., and no ev");
    if (mode->num == MRC_EV_MODE_AUTO && (fields > 0 || evs > 0))
        throw UsageError("ev-profile add: mode auto takes neither ev nor field");
}

Invocation ev_profile(Args &args, ProfCmd which) {
    static constexpr std::array<std::string_view, 4> cmd_names{"ev-profile add", "ev-profile set",
                                                               "ev-profile show", "ev-profile del"};
    const std::string_view name = cmd_names.at(static_cast<std::size_t>(which));
    Invocation inv;
    switch (which) {
    case ProfCmd::New:
        inv = invocation(Action::Change, MRC_CMD_EV_PROFILE_NEW, false);
        break;
    case ProfCmd::Set:
        inv = invocation(Action::Change, MRC_CMD_EV_PROFILE_SET, false);
        break;
    case ProfCmd::Show:
        inv = invocation(Action::ProfileShow, MRC_CMD_EV_PROFILE_GET, true);
        break;
    case ProfCmd::Del:
        inv = invocation(Action::Change, MRC_CMD_EV_PROFILE_DEL, false);
        break;
    }
    const bool change = which == ProfCmd::New || which == ProfCmd::Set;
    const bool add = which == ProfCmd::New;
    Request &r = inv.request;
    std::uint32_t next_ev = 0;
    KeywordLoop kw(args, name);
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_EV_PROFILE_DEV_INDEX);
        } else if (k == "id") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_ID, any_u32(kw.value(k), "id")));
        } else if (add && k == "mode") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_MODE,
                            parse_keyword(kw.value(k), names::ev_mode, "mode")));
        } else if (add && k == "fmt") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_FMT_ID, any_u32(kw.value(k), "fmt id")));
        } else if (add && k == "count") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_COUNT,
                            parse_u32(kw.value(k), 1, MRC_EV_MAX, "count")));
        } else if (which == ProfCmd::Set && k == "state") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_STATE,
                            parse_keyword(kw.value(k), names::profile_state, "state")));
        } else if (change && k == "min-active") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_MIN_ACTIVE,
                            parse_u32(kw.value(k), 0, MRC_EV_MAX, "min-active")));
        } else if (change && k == "event-mask") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_EVENT_MASK,
                            names::parse_mask(kw.value(k), names::ev_state, "event-mask")));
        } else if (change && k == "policy") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_EV_PROFILE_POLICY,
                            parse_keyword(kw.value(k), names::ev_policy, "policy")));
        } else if (change && k == "ev") {
            if (next_ev >= MRC_EV_MAX)
                throw UsageError(std::string(name) + ": more than 4096 EVs");
            r.add(explicit_ev(kw, next_ev++));
        } else if (change && k == "field") {
            if (count_attr(r.attrs, MRC_A_EV_PROFILE_FIELDS) >= fields_max)
                throw UsageError(std::string(name) + ": more than 8 fields");
            r.add(generated_field(kw));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    if (which != ProfCmd::Show)
        kw.require("id", "N");
    if (which == ProfCmd::Set && r.attrs.size() == 1)
        throw UsageError("ev-profile set: nothing to change");
    if (which == ProfCmd::Show && kw.seen("id"))
        r.dump = false;
    check_profile_shape(inv, which);
    return inv;
}

Invocation prof_add(Args &a) {
    return ev_profile(a, ProfCmd::New);
}
Invocation prof_set(Args &a) {
    return ev_profile(a, ProfCmd::Set);
}
Invocation prof_show(Args &a) {
    return ev_profile(a, ProfCmd::Show);
}
Invocation prof_del(Args &a) {
    return ev_profile(a, ProfCmd::Del);
}

constexpr std::array prof_commands{Command{"add", prof_add}, Command{"set", prof_set},
                                   Command{"show", prof_show}, Command{"list", prof_show},
                                   Command{"del", prof_del}};

} // namespace

const Object fmt_profile_object{"ev-fmt-profile", fmt_commands,
                                "ev-fmt-profile add dev DEV id N mode { stev | srv6 | udp } "
                                "[width W]...\n"
                                "ev-fmt-profile set dev DEV id N [state { init | offline | "
                                "online }] [width W]...\n"
                                "ev-fmt-profile show dev DEV [id N]\n"
                                "ev-fmt-profile del dev DEV id N\n",
                                ""};

const Object ev_profile_object{
        "ev-profile", prof_commands,
        "ev-profile add dev DEV id N mode { auto | exp | gen } [fmt F] [count C]\n"
        "        [min-active M] [event-mask STATE[,STATE...]]\n"
        "        [policy { round-robin | weighted | adaptive }]\n"
        "        [ev BYTES [plane P] [weight W]]... [field width W [init I] [min I] [max I] "
        "[mask I]]...\n"
        "ev-profile set dev DEV id N [state { init | offline | online }] [min-active M]\n"
        "        [event-mask STATE[,STATE...]] [policy P] [ev BYTES ...]... [field ...]...\n"
        "ev-profile show dev DEV [id N]\n"
        "ev-profile del dev DEV id N\n",
        ""};

} // namespace mrc::ctl
