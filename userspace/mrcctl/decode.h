// SPDX-License-Identifier: BSD-2-Clause
// decode.h - the family's messages (attr_view.h) into the structs of model.h.
#ifndef MRC_CTL_DECODE_H
#define MRC_CTL_DECODE_H

#include "attr_view.h"
#include "model.h"

namespace mrc::ctl {

DevInfo decode_dev(const AttrView &a);
PathEv decode_path_ev(const AttrView &a);
QpStats decode_qp_stats(const AttrView &a);
EvEvent decode_ev_event(const AttrView &a);
FmtProfile decode_fmt_profile(const AttrView &a);
EvProfile decode_ev_profile(const AttrView &a);
ProbeReply decode_probe(const AttrView &a);

} // namespace mrc::ctl

#endif
