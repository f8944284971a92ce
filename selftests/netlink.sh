#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The generic netlink family "mrc" as the kernel's controller lists it:
# registered with the module, every operation of the spec
# (Documentation/netlink/specs/mrc.yaml) and the ev-events group, in
# every namespace, and gone with the module. The commands themselves are
# tested through mrcctl.
#
#   [ genl ctrl ] --- nlctrl ---> [ family mrc ]   (init_net and mstns)

source "$(dirname "$0")/lib.sh"

# MRC_CMD_DEV_GET (1) ... MRC_CMD_QP_STATS_GET (16); 17 is the event alone.
MRC_NL_OPS=16

family() { genl ctrl get name mrc; }

# The command IDs the controller lists for mrc, one per line, in decimal.
family_ops() {
	family | sed -n '/commands supported/,/multicast groups/p' |
		grep -oE 'ID-0x[0-9a-f]+' | while read -r id; do
			echo $((${id#ID-}))
		done
}

family_registered_with_module() {
	mrc_load
	local out
	out=$(family)
	assert_match "$out" "Name: mrc" "family name"
	assert_match "$out" "Version: 0x1 " "family version"
	genl ctrl list | grep -qE "Name: mrc\$" || fail "mrc missing from genl ctrl list"
}

# (genl prints an op's capabilities only for families of version 2 and up)
family_has_every_op() {
	mrc_load
	family	# into the log
	assert_eq "$(family_ops | tr '\n' ' ')" "$(seq -s ' ' 1 $MRC_NL_OPS) " "command IDs"
}

family_has_ev_events_group() {
	mrc_load
	assert_match "$(family | sed -n '/multicast groups/,$p')" "name: ev-events" \
		"multicast group"
}

family_in_other_namespace() {
	mrc_load
	ip netns add mstns
	assert_match "$(ip netns exec mstns genl ctrl get name mrc)" "Name: mrc" \
		"family seen from another namespace (netnsok)"
}

family_gone_after_rmmod() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	rmmod mrc
	expect_error "family after rmmod" "." family
	modprobe mrc
	assert_match "$(family)" "Name: mrc" "family after reload"
}

ktap_run \
	family_registered_with_module \
	family_has_every_op \
	family_has_ev_events_group \
	family_in_other_namespace \
	family_gone_after_rmmod
