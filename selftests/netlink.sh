#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The generic netlink family "mrc" (Documentation/netlink/specs/mrc.yaml):
# registered with the module, as the kernel's controller lists it (genl),
# and its requests spoken raw by mrc_nl_check, good ones and every kind of
# bad one: refused with an errno and an extack message, changing nothing.
# mrcctl's own tests come with mrcctl.
#
#   [ mrcst0 ] on mst0 <-- veth --> mst1                 (the init namespace)
#
#   netns msta                                   netns mstb
#   [ mrcsta ]                                   [ mrcstb ]
#   msta0 2001:db8:a::1 10.11.0.1 <-- veth --> mstb0 2001:db8:a::2 10.11.0.2
#          ibv_rc_pingpong  <------------------>  ibv_rc_pingpong   (path sets, QPs)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

# Attribute numbers (include/uapi/linux/mrc.h) for the raw requests.
A_DEV_INDEX=1
A_PATH_DEV=1 A_PATH_PROFILE=2 A_PATH_DST=3 A_PATH_EV=5
A_EV_INDEX=1 A_EV_WEIGHT=4 A_EV_STATE=5
GOOD=1 ASSUMED_BAD=2 DENIED=4 REASON_CONTROLLER=4

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

# Commands run in namespace $IN when set (IN=na, IN="ip netns exec mstns").
nl() { $IN mrc_nl_check "$@"; }

dev_index() { # NAME -> the rdma device's index, as mrc_nl_check dev shows it
	nl dev | sed -n "s/^dev index=\([0-9]*\) name=$1 .*/\1/p"
}

# ev-set of EV $3 to state $4 on device $1, profile $2, extra ATTRs after.
ev_set() { # DEV PROFILE EV STATE [ATTR...]
	local dev=$1 profile=$2 ev=$3 state=$4
	shift 4
	nl send ev-set u32:$A_PATH_DEV=$dev u32:$A_PATH_PROFILE=$profile "$@" \
		nest:$A_PATH_EV{ u32:$A_EV_INDEX=$ev u32:$A_EV_STATE=$state }
}

dev_dump_and_get() {
	addressed_device
	local idx line
	idx=$(dev_index mrcst0)
	[ -n "$idx" ] || fail "mrcst0 missing from the dev-get dump: $(mrc_nl_check dev)"
	line=$(mrc_nl_check dev-get "$idx")
	echo "$line"
	assert_eq "$line" "dev index=$idx name=mrcst0 ev_max=4096 profiles_max=1 fmt_modes=4 \
ev_modes=1 plane id=1 ifindex=$(cat /sys/class/net/mst0/ifindex) ifname=mst0 admin_up=1" "dev-get"
	assert_match "$(mrc_nl_check dev)" "^$line\$" "the dump's line for mrcst0"
}

dev_get_refusals() {
	addressed_device
	local idx
	idx=$(dev_index mrcst0)
	expect_error "unknown device" "^error ENODEV .*no such mrc device" \
		mrc_nl_check dev-get 99999
	expect_error "no index" "^error EINVAL .*(is missing|needs an index)" mrc_nl_check send dev-get
	expect_error "index of the wrong size" "^error (EINVAL|ERANGE) " \
		mrc_nl_check send dev-get u8:$A_DEV_INDEX=$idx
	expect_error "attribute beyond the request's" "^error EINVAL " \
		mrc_nl_check send dev-get u32:$A_DEV_INDEX=$idx u32:2=1
	expect_error "dump filtered by an unknown device" "^error ENODEV " \
		mrc_nl_check qps 99999
}

devices_of_other_namespaces_unseen() {
	addressed_device
	local idx
	idx=$(dev_index mrcst0)
	ip netns add mstns
	assert_eq "$(ip netns exec mstns mrc_nl_check dev)" "" "dev-get dump in another namespace"
	expect_error "dev-get from another namespace" "^error ENODEV " \
		ip netns exec mstns mrc_nl_check dev-get "$idx"
	IN="ip netns exec mstns" expect_error "ev-set from another namespace" "^error ENODEV " \
		ev_set "$idx" 0 0 $DENIED
}

not_yet_built_ops_say_so() {
	addressed_device
	local op
	for op in plane-add plane-del plane-set ev-fmt-profile-new ev-fmt-profile-set \
		ev-fmt-profile-get ev-fmt-profile-del ev-profile-new ev-profile-set ev-profile-get \
		ev-profile-del probe; do
		expect_error "$op" "^error EOPNOTSUPP .*not supported yet" mrc_nl_check send $op
	done
	expect_error "ev-profile-get dump" "^error EOPNOTSUPP .*not supported yet" \
		mrc_nl_check send -d ev-profile-get
}

ev_set_refusals() {
	addressed_device
	local idx
	idx=$(dev_index mrcst0)
	expect_error "no path set yet" "^error ENOENT .*no path set" ev_set "$idx" 0 0 $DENIED
	expect_error "unknown device" "^error ENODEV " ev_set 99999 0 0 $DENIED
	expect_error "state assumed-bad" "^error EINVAL .*denied or good" \
		ev_set "$idx" 0 0 $ASSUMED_BAD
	expect_error "state 3" "^error EINVAL .*denied or good" ev_set "$idx" 0 0 3
	expect_error "state 9" "^error (EINVAL|ERANGE) " ev_set "$idx" 0 0 9
	expect_error "index beyond any profile" "^error (EINVAL|ERANGE) " ev_set "$idx" 0 4096 $GOOD
	expect_error "a weight too" "^error EINVAL .*state alone" \
		mrc_nl_check send ev-set u32:$A_PATH_DEV=$idx u32:$A_PATH_PROFILE=0 \
		nest:$A_PATH_EV{ u32:$A_EV_INDEX=0 u32:$A_EV_STATE=$DENIED u8:$A_EV_WEIGHT=2 }
	expect_error "no ev" "^error EINVAL .*(is missing|needs an index)" \
		mrc_nl_check send ev-set u32:$A_PATH_DEV=$idx u32:$A_PATH_PROFILE=0
	expect_error "no index in ev" "^error EINVAL .*(is missing|needs an index)" \
		mrc_nl_check send ev-set u32:$A_PATH_DEV=$idx u32:$A_PATH_PROFILE=0 \
		nest:$A_PATH_EV{ u32:$A_EV_STATE=$DENIED }
	expect_error "short dst" "^error (EINVAL|ERANGE) " \
		ev_set "$idx" 0 0 $DENIED hex:$A_PATH_DST=20010db8
	expect_error "unprivileged" "^error EPERM " \
		mrc_nl_check -u send ev-set u32:$A_PATH_DEV=$idx u32:$A_PATH_PROFILE=0 \
		nest:$A_PATH_EV{ u32:$A_EV_INDEX=0 u32:$A_EV_STATE=$DENIED }
}

# QPs between A and B, busy for 25 s (or until the test ends): their path sets exist meanwhile.
# (Stopped on the way out: the test's output pipe would wait for them.)
traffic() {
	two_hosts
	local gid_a gid_b
	trap traffic_stop EXIT
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $B6)")
	server_a 18515 timeout 25 ibv_rc_pingpong -d mrcsta -g "$gid_a" -n 100000000
	nb timeout 25 ibv_rc_pingpong -d mrcstb -g "$gid_b" -n 100000000 $A4 >/dev/null 2>&1 &
	CLIENT_PID=$!
	wait_until 30 a_has_paths
}

traffic_stop() {
	kill -TERM $SERVER_PID $CLIENT_PID $MONITOR_PID 2>/dev/null	# timeout(1) passes it on
	wait 2>/dev/null
}

a_has_paths() { IN=na nl paths | grep -q "^path "; }

path_dump_over_many_messages() {
	traffic
	local IN=na idx out
	idx=$(dev_index mrcsta)
	out=$(nl paths)
	echo "$out" | head -n 2
	# 256 EVs of one path set, far more than one skb holds: the dump resumed
	assert_eq "$(echo "$out" | grep -c "^path dev=$idx profile=0 dst=$B6 good=256 ev=")" 256 \
		"EVs of the path set towards B"
	assert_eq "$(echo "$out" | grep -c .)" 256 "messages in the dump"
	assert_eq "$(echo "$out" | sed -n 's/.* ev=\([0-9]*\) .*/\1/p' | sort -n | uniq | wc -l)" \
		256 "distinct EVs"
	assert_match "$out" " ev=0 bytes=c000 plane=1 weight=1 state=$GOOD reason=0 " "EV 0"
	assert_match "$out" " ev=255 bytes=c0ff plane=1 " "EV 255"
	assert_eq "$(nl paths "$idx" | grep -c .)" 256 "filtered by device"
	assert_eq "$(nl send -d path-get u32:$A_PATH_DEV=$idx in6:$A_PATH_DST=$B6)" \
		"ok 256 messages" "filtered by destination"
	assert_eq "$(nl send -d path-get in6:$A_PATH_DST=2001:db8:a::9)" "ok 0 messages" \
		"another destination"
	assert_eq "$(nl send -d path-get u32:$A_PATH_PROFILE=1)" "ok 0 messages" "another profile"
	assert_match "$(nl qps "$idx")" "^qp dev=$idx qpn=[0-9]+ profile=0 packets=[1-9]" \
		"qp-stats of A's QP"
}

ev_deny_and_allow() {
	traffic
	local IN=na idx events
	idx=$(dev_index mrcsta)
	events=$(mktemp)
	nl monitor 15 >"$events" 2>&1 &
	MONITOR_PID=$!
	wait_until 10 grep -q listening "$events"
	expect_error "EV beyond the set" "^error ERANGE .*beyond" ev_set "$idx" 0 256 $DENIED
	ev_set "$idx" 0 3 $DENIED in6:$A_PATH_DST=$B6 || fail "deny EV 3"
	assert_match "$(nl paths | grep ' ev=3 ')" \
		"good=255 ev=3 bytes=c003 plane=1 weight=1 state=$DENIED reason=$REASON_CONTROLLER " \
		"EV 3 denied"
	sleep 1		# traffic goes on over the other 255 EVs
	ev_set "$idx" 0 3 $GOOD || fail "allow EV 3"
	assert_match "$(nl paths | grep ' ev=3 ')" "good=256 ev=3 .* state=$GOOD " "EV 3 good again"
	wait_until 10 grep -q "from=$DENIED to=$GOOD" "$events"
	cat "$events"
	assert_match "$(cat "$events")" \
		"^event dev=$idx profile=0 dst=$B6 ev=3 from=$GOOD to=$DENIED reason=$REASON_CONTROLLER " \
		"ev-event of the deny"
	assert_eq "$(grep -c '^event' "$events")" 2 "ev-events"
	rm -f "$events"
}

# Dumps racing the removal of QPs, path sets and the device: cut short or
# empty, never a crash (the VM panics on any warning).
dumps_race_device_removal() {
	traffic
	local IN=na i pids=() del
	for i in 1 2 3; do
		(for _ in $(seq 1 30); do nl paths; nl qps; nl dev; done >/dev/null 2>&1) &
		pids+=($!)
	done
	sleep 0.3
	nl paths >/dev/null
	# ib_core waits for the verbs users to go before the device can
	na rdma link del mrcsta &
	del=$!
	sleep 0.3
	kill -TERM "$SERVER_PID" "$CLIENT_PID"
	wait "$del" || fail "rdma link del"
	wait "${pids[@]}" || true
	assert_eq "$(nl dev)" "" "devices of A after removal"
}

ktap_run \
	family_registered_with_module \
	family_has_every_op \
	family_has_ev_events_group \
	family_in_other_namespace \
	family_gone_after_rmmod \
	dev_dump_and_get \
	dev_get_refusals \
	devices_of_other_namespaces_unseen \
	not_yet_built_ops_say_so \
	ev_set_refusals \
	path_dump_over_many_messages \
	ev_deny_and_allow \
	dumps_race_device_removal
