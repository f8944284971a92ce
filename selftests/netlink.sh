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
A_EV_INDEX=1 A_EV_BYTES=2 A_EV_PLANE=3 A_EV_WEIGHT=4 A_EV_STATE=5
A_DEV_DEFAULT=8
A_QP_DEV=1 A_QP_QPN=2
A_PROBE_DEV=1 A_PROBE_DST=2 A_PROBE_EV=4
A_FMT_DEV=1 A_FMT_ID=2 A_FMT_MODE=3 A_FMT_STATE=4
A_PROF_DEV=1 A_PROF_ID=2 A_PROF_MODE=3 A_PROF_FMT_ID=4 A_PROF_STATE=5 A_PROF_COUNT=6 A_PROF_MIN_ACTIVE=7
A_PROF_EVS=10 A_PROF_FIELDS=11
A_FIELD_WIDTH=1 A_FIELD_INIT=2 A_FIELD_MIN=3 A_FIELD_MAX=4 A_FIELD_MASK=5
GOOD=1 ASSUMED_BAD=2 DENIED=4 REASON_CONTROLLER=4
MODE_AUTO=1 MODE_EXP=2 MODE_GEN=4 FMT_STEV=1 FMT_SRV6=2 FMT_UDP=4 OFFLINE=1 ONLINE=2

# MRC_CMD_DEV_GET (1) ... MRC_CMD_DEV_SET (17), then MRC_CMD_QP_STALL_RESET (19); 18 is the
# event alone.
MRC_NL_OPS="$(seq -s ' ' 1 17) 19"

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
	assert_eq "$(family_ops | tr '\n' ' ')" "$MRC_NL_OPS " "command IDs"
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
	assert_eq "$line" "dev index=$idx name=mrcst0 ev_max=4096 profiles_max=16 fmt_modes=7 \
ev_modes=7 default_profile=0 plane id=1 ifindex=$(cat /sys/class/net/mst0/ifindex) ifname=mst0 \
admin_up=1" "dev-get"
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

ops_refuse_what_they_cannot_do() {
	addressed_device
	local op idx
	idx=$(dev_index mrcst0)
	# planes are built (multipath_planes.sh): a request without its device is refused
	for op in plane-add plane-del plane-set; do
		expect_error "$op" "^error EINVAL" mrc_nl_check send $op
	done
	# one-shot probes are built: they want a path set (a QP) towards their destination
	expect_error "probe, no path set" "^error ENOENT .*no path set" \
		mrc_nl_check send probe u32:$A_PROBE_DEV=$idx in6:$A_PROBE_DST=2001:db8::99 \
		u32:$A_PROBE_EV=0
	expect_error "format mode 3" "^error EINVAL .*unknown EV format mode" \
		mrc_nl_check send ev-fmt-profile-new u32:$A_FMT_DEV=$idx u32:$A_FMT_ID=1 \
		u32:$A_FMT_MODE=3
	expect_error "an EV on plane 17" "^error EINVAL .*plane is 1 to 16" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c000 u8:$A_EV_PLANE=17 }
	assert_eq "$(nl send -d ev-fmt-profile-get u32:$A_FMT_DEV=$idx)" "ok 1 messages" \
		"format profiles after the refusals"
}

# ev-profile-new on device $1 of id $2, mode $3, more ATTRs after.
prof_new() { # DEV ID MODE [ATTR...]
	local dev=$1 id=$2 mode=$3
	shift 3
	nl send ev-profile-new u32:$A_PROF_DEV=$dev u32:$A_PROF_ID=$id u32:$A_PROF_MODE=$mode "$@"
}

# The EV profiles of device $1 as the dump counts them.
prof_count() { nl send -d ev-profile-get u32:$A_PROF_DEV=$1 | sed -n 's/^ok \([0-9]*\) messages$/\1/p'; }

profiles_made_and_deleted() {
	addressed_device
	local idx
	idx=$(dev_index mrcst0)
	assert_eq "$(prof_count "$idx")" 1 "profiles of a new device (profile 0)"
	assert_eq "$(nl send ev-profile-get u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=0)" "ok 1 messages" \
		"profile 0"
	prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ u32:$A_EV_INDEX=0 hex:$A_EV_BYTES=c000 } \
		nest:$A_PROF_EVS{ u32:$A_EV_INDEX=1 hex:$A_EV_BYTES=c001 u8:$A_EV_WEIGHT=3 } ||
		fail "explicit profile"
	prof_new "$idx" 2 $MODE_GEN nest:$A_PROF_FIELDS{ u32:$A_FIELD_WIDTH=16 \
u32:$A_FIELD_INIT=0xc100 u32:$A_FIELD_MAX=7 u32:$A_FIELD_MASK=7 } || fail "generated profile"
	prof_new "$idx" 3 $MODE_AUTO u32:$A_PROF_COUNT=16 || fail "auto profile"
	nl send ev-fmt-profile-new u32:$A_FMT_DEV=$idx u32:$A_FMT_ID=1 u32:$A_FMT_MODE=$FMT_UDP \
		nest:5{ u32:1=16 } || fail "UDP format profile"
	assert_eq "$(prof_count "$idx")" 4 "profiles made"
	expect_error "default not online" "^error EINVAL .*must be online" \
		nl send dev-set u32:$A_DEV_INDEX=$idx u32:$A_DEV_DEFAULT=1
	nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=3 u32:$A_PROF_STATE=0 ||
		fail "profile 3 offline -> init"
	expect_error "init to online" "^error EINVAL .*one step" \
		nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=3 u32:$A_PROF_STATE=$ONLINE
	nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=1 u32:$A_PROF_STATE=$ONLINE ||
		fail "profile 1 online"
	expect_error "EVs of an online profile" "^error EBUSY .*not online" \
		nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=1 \
		nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c005 }
	nl send dev-set u32:$A_DEV_INDEX=$idx u32:$A_DEV_DEFAULT=1 || fail "default profile 1"
	assert_match "$(nl dev-get "$idx")" " default_profile=1 " "dev-get after dev-set"
	expect_error "deleting the default" "^error EBUSY .*default profile" \
		nl send ev-profile-del u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=1
	expect_error "default offline" "^error EBUSY .*stays online" \
		nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=1 u32:$A_PROF_STATE=$OFFLINE
	nl send dev-set u32:$A_DEV_INDEX=$idx u32:$A_DEV_DEFAULT=0 || fail "default profile 0"
	nl send ev-profile-del u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=2 || fail "delete profile 2"
	expect_error "deleted twice" "^error ENOENT " \
		nl send ev-profile-del u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=2
	assert_eq "$(prof_count "$idx")" 3 "profiles after a delete"
	# the device goes with profiles 1 and 3 and format profile 1 in it: freed (kmemleak)
}

profile_refusals() {
	addressed_device
	local idx ev=() i
	idx=$(dev_index mrcst0)
	expect_error "EV of 1 byte" "^error EINVAL .*2 bytes" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c0 }
	expect_error "EV of 3 bytes" "^error EINVAL .*2 bytes" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c00000 }
	expect_error "EV without bytes" "^error EINVAL .*needs its bytes" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ u32:$A_EV_INDEX=0 }
	expect_error "EVs out of order" "^error EINVAL .*index order" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_EVS{ u32:$A_EV_INDEX=1 hex:$A_EV_BYTES=c000 }
	expect_error "count 0" "^error (EINVAL|ERANGE) " prof_new "$idx" 1 $MODE_AUTO u32:$A_PROF_COUNT=0
	expect_error "count 4097" "^error (EINVAL|ERANGE) " \
		prof_new "$idx" 1 $MODE_AUTO u32:$A_PROF_COUNT=4097
	for i in $(seq 0 4096); do ev+=(nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c000 }); done
	expect_error "4097 EVs" "^error EINVAL .*at most 4096" prof_new "$idx" 1 $MODE_EXP "${ev[@]}"
	expect_error "count differs from the EVs" "^error EINVAL .*count differs" \
		prof_new "$idx" 1 $MODE_EXP u32:$A_PROF_COUNT=2 nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c000 }
	expect_error "min-active above count" "^error EINVAL .*min-active" \
		prof_new "$idx" 1 $MODE_EXP u32:$A_PROF_MIN_ACTIVE=2 \
		nest:$A_PROF_EVS{ hex:$A_EV_BYTES=c000 }
	expect_error "generated: fewer EVs than count" "^error EINVAL .*fewer EVs" \
		prof_new "$idx" 1 $MODE_GEN u32:$A_PROF_COUNT=9 nest:$A_PROF_FIELDS{ \
u32:$A_FIELD_WIDTH=16 u32:$A_FIELD_MAX=7 u32:$A_FIELD_MASK=7 }
	expect_error "generated: wider than a port" "^error EINVAL .*wider than the EV format" \
		prof_new "$idx" 1 $MODE_GEN nest:$A_PROF_FIELDS{ u32:$A_FIELD_WIDTH=17 u32:$A_FIELD_MAX=1 \
u32:$A_FIELD_MASK=1 }
	expect_error "mode exp with fields" "^error EINVAL .*mode exp" \
		prof_new "$idx" 1 $MODE_EXP nest:$A_PROF_FIELDS{ u32:$A_FIELD_WIDTH=16 }
	expect_error "mode 3" "^error EINVAL .*unknown EV mode" prof_new "$idx" 1 3
	expect_error "format mode 3" "^error EINVAL .*unknown EV format mode" \
		nl send ev-fmt-profile-new u32:$A_FMT_DEV=$idx u32:$A_FMT_ID=1 u32:$A_FMT_MODE=3
	expect_error "id 16" "^error EINVAL .*below profiles-max" prof_new "$idx" 16 $MODE_AUTO
	expect_error "no such format" "^error ENOENT .*format profile" \
		prof_new "$idx" 1 $MODE_AUTO u32:$A_PROF_FMT_ID=5
	expect_error "profile 0 again" "^error EEXIST " prof_new "$idx" 0 $MODE_AUTO
	expect_error "delete profile 0" "^error EINVAL .*cannot be deleted" \
		nl send ev-profile-del u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=0
	expect_error "delete format 0" "^error EINVAL .*cannot be deleted" \
		nl send ev-fmt-profile-del u32:$A_FMT_DEV=$idx u32:$A_FMT_ID=0
	expect_error "profile 0 offline" "^error EINVAL .*built in" \
		nl send ev-profile-set u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=0 u32:$A_PROF_STATE=$OFFLINE
	expect_error "default: no such profile" "^error ENOENT " \
		nl send dev-set u32:$A_DEV_INDEX=$idx u32:$A_DEV_DEFAULT=5
	expect_error "unprivileged new" "^error EPERM " \
		mrc_nl_check -u send ev-profile-new u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=1 \
		u32:$A_PROF_MODE=$MODE_AUTO
	expect_error "unprivileged dev-set" "^error EPERM " \
		mrc_nl_check -u send dev-set u32:$A_DEV_INDEX=$idx u32:$A_DEV_DEFAULT=0
	expect_error "stall reset, no device" "^error EINVAL " nl send qp-stall-reset
	expect_error "stall reset, no such QP" "^error ENOENT .*no such QP" \
		nl send qp-stall-reset u32:$A_QP_DEV=$idx u32:$A_QP_QPN=16777215
	expect_error "unprivileged stall reset" "^error EPERM " \
		mrc_nl_check -u send qp-stall-reset u32:$A_QP_DEV=$idx
	expect_error "unprivileged del" "^error EPERM " \
		mrc_nl_check -u send ev-profile-del u32:$A_PROF_DEV=$idx u32:$A_PROF_ID=0
	# anyone may read
	assert_eq "$(mrc_nl_check -u send -d ev-profile-get u32:$A_PROF_DEV=$idx)" "ok 1 messages" \
		"unprivileged dump"
	# nothing changed
	assert_eq "$(prof_count "$idx")" 1 "profiles after the refusals"
	assert_eq "$(nl send -d ev-fmt-profile-get u32:$A_FMT_DEV=$idx)" "ok 1 messages" \
		"format profiles after the refusals"
	assert_match "$(nl dev-get "$idx")" " default_profile=0 " "default after the refusals"
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
	# (set -e holds in an EXIT trap too: a process already gone is no failure)
	kill -TERM $SERVER_PID $CLIENT_PID $MONITOR_PID 2>/dev/null || true
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
	nl paths | grep -q "^path " || fail "no path set before the removal"
	# ib_core waits for the verbs users to go before the device can
	na rdma link del mrcsta &
	del=$!
	sleep 0.3
	kill -TERM "$SERVER_PID" "$CLIENT_PID" || true	# one may have given up already
	wait "$del" || fail "rdma link del"
	wait "${pids[@]}" || true
	assert_eq "$(nl dev)" "" "devices of A after removal"
}

# mrc_nl_fuzz (userspace/tools): requests generated from the policies the kernel dumps for the
# family, NL_FUZZ_COUNT as root in A's namespace while QPs between A and B use their path sets
# (adding and deleting profiles under them, and planes: a spare veth end, mstp0, is there to be
# one), a fifth of that as nobody. Every
# refusal says why (an errno and an extack message), every request is answered, and the VM
# panics on any kernel warning. Then nothing has leaked: whatever the fuzzer made can be
# deleted, leaving at most what was there before; the path sets go with their QPs; the devices
# are removed and the module unloads. The seed is printed: mrc_nl_fuzz --seed N replays it.
NL_FUZZ_COUNT=${NL_FUZZ_COUNT:-100000}
ids_of() { # OBJECT: the ids mrcctl shows of A's, sorted
	na mrcctl -j "$1" show dev mrcsta | jq -r '.[] | .id // .plane' | sort -n | tr '\n' ' '
}

fuzz_requests() {
	traffic
	local seed=$RANDOM obj id default
	local -A before
	na ip link add mstp0 type veth peer name mstp1
	for obj in ev-profile ev-fmt-profile plane; do before[$obj]=$(ids_of $obj); done
	default=$(na mrcctl -j dev show mrcsta | jq -r '.[0].default_profile')
	na mrc_nl_fuzz --seed $seed --count "$NL_FUZZ_COUNT" ||
		fail "mrc_nl_fuzz --seed $seed: findings above"
	na mrc_nl_fuzz -u --seed $seed --count $((NL_FUZZ_COUNT / 5)) ||
		fail "mrc_nl_fuzz -u --seed $seed: findings above"
	traffic_stop
	na mrcctl dev set dev mrcsta default-profile "$default"
	# EV profiles first: they hold format profiles and planes
	for obj in ev-profile ev-fmt-profile plane; do
		for id in $(ids_of $obj); do
			case " ${before[$obj]} " in *" $id "*) continue ;; esac
			na mrcctl $obj del dev mrcsta id "$id" || fail "the fuzzer's $obj $id cannot be deleted"
		done
		echo "$obj ids after the fuzzer and the clean-up: $(ids_of $obj)(before: ${before[$obj]})"
	done
	wait_until 20 no_paths_of_a
	na rdma link del mrcsta
	nb rdma link del mrcstb
	rmmod mrc || fail "rmmod after the fuzzer"
}
no_paths_of_a() { [ "$(IN=na nl paths | grep -c "^path ")" = 0 ]; }

ktap_run \
	family_registered_with_module \
	family_has_every_op \
	family_has_ev_events_group \
	family_in_other_namespace \
	family_gone_after_rmmod \
	dev_dump_and_get \
	dev_get_refusals \
	devices_of_other_namespaces_unseen \
	ops_refuse_what_they_cannot_do \
	profiles_made_and_deleted \
	profile_refusals \
	ev_set_refusals \
	path_dump_over_many_messages \
	ev_deny_and_allow \
	dumps_race_device_removal \
	fuzz_requests
