#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Standard verbs tools see an mrc device through our rdma-core provider
# (libmrc-rdmav34.so, `driver mrc` in /etc/libibverbs.d): ibv_devices lists
# it, ibv_devinfo shows its port following the netdev (state, MTU, GIDs),
# and a verbs program (mrc_verbs_probe) opens it, allocates a PD and runs
# the provider's rings against the kernel (CQ, SRQ, QP flush).
#
#   [ mrcst0 ]   <- ibv_devices, ibv_devinfo, mrc_verbs_probe (libibverbs + libmrc)
#       |
#     mst0 (02:00:00:00:00:01, 2001:db8:1::5/64, 192.0.2.7/24) <-- veth --> mst1

source "$(dirname "$0")/lib.sh"

V6_GID=2001:db8:1::5		# as ibv_devinfo prints RoCE v2 GIDs (inet_ntop)
V4_GID=::ffff:192.0.2.7

setup() {
	addressed_device
	wait_until 10 port_state_is mrcst0 "4: ACTIVE"
}

devinfo() { ibv_devinfo -d mrcst0 "$@"; }

# The value of FIELD in `ibv_devinfo -d mrcst0`, e.g. "PORT_ACTIVE (4)".
devinfo_field() { # FIELD
	devinfo | sed -n "s/^[[:space:]]*$1:[[:space:]]*//p" | head -n1
}

devinfo_field_is() { [ "$(devinfo_field "$1")" = "$2" ]; }

devinfo_verbose_has_gid() { # GID
	ibv_devinfo -v -d mrcst0 | grep -qE "GID\[ *[0-9]+\]:[[:space:]]+$1, RoCE v2$"
}

ibv_devices_lists_device() {
	setup
	local out
	out=$(ibv_devices)
	echo "$out"
	echo "$out" | grep -qE "^[[:space:]]+mrcst0[[:space:]]" || fail "mrcst0 not in ibv_devices"
}

devinfo_opens_device() {
	setup
	devinfo
	assert_eq "$(devinfo | sed -n 's/^hca_id:[[:space:]]*//p')" "mrcst0" "hca_id"
	assert_eq "$(devinfo_field phys_port_cnt)" "1" "phys_port_cnt"
}

devinfo_transport_and_link_layer() {
	setup
	assert_eq "$(devinfo_field transport)" "InfiniBand (0)" "transport"
	assert_eq "$(devinfo_field link_layer)" "Ethernet" "link_layer"
}

devinfo_port_active_when_netdev_up() {
	setup
	assert_eq "$(devinfo_field state)" "PORT_ACTIVE (4)" "port state"
	assert_eq "$(devinfo_field max_mtu)" "4096 (5)" "max_mtu"
}

devinfo_port_down_when_netdev_down() {
	setup
	ip link set mst0 down
	wait_until 10 devinfo_field_is state "PORT_DOWN (1)"
	ip link set mst0 up
	wait_until 10 devinfo_field_is state "PORT_ACTIVE (4)"
}

# active_mtu: the largest IB MTU that fits the netdev MTU minus 168 bytes of headers
devinfo_active_mtu_1024_for_1500() {
	setup
	assert_eq "$(cat /sys/class/net/mst0/mtu)" "1500" "netdev mtu"
	assert_eq "$(devinfo_field active_mtu)" "1024 (3)" "active_mtu"
}

devinfo_active_mtu_4096_for_9000() {
	setup
	ip link set mst0 mtu 9000
	wait_until 10 devinfo_field_is active_mtu "4096 (5)"
}

devinfo_active_mtu_follows_netdev_mtu() {
	setup
	ip link set mst0 mtu 4000	# 3832 bytes left: 2048
	wait_until 10 devinfo_field_is active_mtu "2048 (4)"
	ip link set mst0 mtu 4264	# exactly 4096 left
	wait_until 10 devinfo_field_is active_mtu "4096 (5)"
	ip link set mst0 mtu 4263
	wait_until 10 devinfo_field_is active_mtu "2048 (4)"
}

devinfo_verbose_shows_gids() {
	setup
	wait_until 20 devinfo_verbose_has_gid "$V6_GID"
	wait_until 20 devinfo_verbose_has_gid "$V4_GID"
	ibv_devinfo -v -d mrcst0 | grep -E "GID\[" || true
}

verbs_alloc_pd() {
	setup
	local out
	out=$(mrc_verbs_probe mrcst0 pd) || fail "mrc_verbs_probe: $out"
	echo "$out"
	assert_match "$out" "^open mrcst0: ok" "open"
	assert_match "$out" "alloc_pd: ok" "alloc_pd"
}

# mrc_verbs_probe STEP must succeed, printing every line it is given.
probe_ok() { # STEP EXPECTED-LINE...
	local step=$1 out line
	shift
	out=$(mrc_verbs_probe mrcst0 "$step") || { echo "$out"; fail "mrc_verbs_probe $step"; }
	echo "$out"
	for line in "$@"; do
		echo "$out" | grep -qxF -- "$line" || fail "$step: no line '$line'"
	done
}

# The CQ ring is mapped, and remapped by ibv_resize_cq.
verbs_create_and_resize_cq() {
	setup
	probe_ok cq "create_cq: ok" "resize_cq: ok"
}

verbs_srq() {
	setup
	probe_ok srq "create_srq: ok" "post_srq_recv: ok" "query_srq: ok" "modify_srq: ok"
}

# Both directions of every ring, through the kernel: receives and a send
# written by the provider come back as WR_FLUSH_ERR completions it polls,
# across a CQ resize.
verbs_flush_round_trip() {
	setup
	probe_ok flush "reg_mr: ok" "create_qp: ok" "post_recv: ok" "post_send: ok" \
		"wc wr_id 100 status Work Request Flushed Error opcode 128 qp_num ok" \
		"wc wr_id 101 status Work Request Flushed Error opcode 128 qp_num ok" \
		"wc wr_id 200 status Work Request Flushed Error opcode 0 qp_num ok" \
		"poll_cq flushed: ok"
}

# The extended verbs' create calls: an extended CQ and a QP with the ibv_wr_* ops are made, and
# what mrc does not carry is refused with EOPNOTSUPP (stress.sh moves data through them).
verbs_extended_create() {
	setup
	probe_ok ex "create_cq_ex: ok" "start_poll empty: ok" "create_qp_ex: ok" \
		"qp_to_qp_ex: ok" "plain qp has no qp_ex: ok"
	[ "$(mrc_verbs_probe mrcst0 ex | grep -c '^refused .*: ok ')" -eq 6 ] ||
		fail "not every unsupported feature was refused with EOPNOTSUPP"
}

ktap_run \
	ibv_devices_lists_device \
	devinfo_opens_device \
	devinfo_transport_and_link_layer \
	devinfo_port_active_when_netdev_up \
	devinfo_port_down_when_netdev_down \
	devinfo_active_mtu_1024_for_1500 \
	devinfo_active_mtu_4096_for_9000 \
	devinfo_active_mtu_follows_netdev_mtu \
	devinfo_verbose_shows_gids \
	verbs_alloc_pd \
	verbs_create_and_resize_cq \
	verbs_srq \
	verbs_flush_round_trip \
	verbs_extended_create
