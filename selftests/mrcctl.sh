#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcctl against the kernel's mrc family: the device list, the EV table of a path set while a
# flow runs over it, denying and allowing one EV (seen by ev show, in its packet counter and by
# `mrcctl monitor`), and refusals of bad input, which must change nothing.
#
#   netns msta                                               netns mstb
#   [ mrcsta ] msta0 10.11.0.1  <------- veth ------->  10.11.0.2 mstb0 [ mrcstb ]
#   mrc_stress server                                   mrc_stress client, mrcctl
#
# mrcstb's path set towards A (dst 10.11.0.1, profile 0: 256 UDP-port EVs) exists while the
# flow's QPs do; mrcctl in mstb reads and changes it.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

FLOW_PORT=18530
FLOW_LOG=/tmp/mrcctl_flow.log
MON_LOG=/tmp/mrcctl_monitor.log

ctl_a() { na mrcctl "$@"; }
ctl_b() { nb mrcctl "$@"; }
# mrcctl in B as nobody, without capabilities
ctl_b_nobody() { nb setpriv --reuid=65534 --regid=65534 --clear-groups mrcctl "$@"; }

ev_b() { # INDEX FIELD
	evs_b | jq -r ".[] | select(.index == $1) | .$2"
}
evs_b_count_is() { [ "$(evs_b | jq length)" = "$1" ]; }
every_ev_carried() { [ "$(evs_b | jq '[.[] | select(.packets > 0)] | length')" = 256 ]; }

# Poll CMD once a second (mrcctl and jq cost a lot under TCG: polling faster starves the flow).
poll_until() { WAIT_INTERVAL=1 wait_until "$@"; } # SECONDS CMD...

# A flow from B to A (and back) in the background, until flow_stop; returns once B's path
# set towards A is up (with FLOW_EVS EVs, 256 by default: profile 0's). A long ACK timeout
# (1 s) rides out vCPU stalls under TCG. FLOW_ARGS: more options of B's mrc_stress.
flow_start() {
	local gid_a gid_b
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	server_a $FLOW_PORT timeout 250 mrc_stress -d mrcsta -g "$gid_a" -p $FLOW_PORT
	ip netns exec mstb timeout 250 mrc_stress -d mrcstb -g "$gid_b" -p $FLOW_PORT \
		--seconds 200 --qps 2 --max-size 65536 --qp-timeout 18 ${FLOW_ARGS:-} $A4 \
		>$FLOW_LOG 2>&1 &
	CLIENT_PID=$!
	trap flow_stop EXIT	# also when the test fails
	if ! (poll_until 60 evs_b_count_is "${FLOW_EVS:-256}"); then
		tail -n 5 $FLOW_LOG
		fail "no path set of ${FLOW_EVS:-256} EVs towards A: did the flow start?"
	fi
}

flow_stop() {
	kill "$CLIENT_PID" "$SERVER_PID" 2>/dev/null || true
	wait "$CLIENT_PID" "$SERVER_PID" 2>/dev/null || true
}


dev_show_lists_the_device() {
	two_hosts
	local out index
	out=$(ctl_a dev show)
	echo "$out"
	assert_match "$out" "^index [0-9]+: name mrcsta " "dev show"
	assert_match "$out" "plane 1 ifname msta0 ifindex [0-9]+ admin up" "plane 1"
	echo "$out" | grep -q mrcstb && fail "B's device shows in A's namespace"
	out=$(ctl_a -j dev show)
	echo "$out"
	assert_eq "$(echo "$out" | jq -r '.[].name')" mrcsta "dev show -j name"
	index=$(echo "$out" | jq -r '.[0].index')
	assert_eq "$index" "$(na rdma dev show mrcsta | cut -d: -f1)" "index as rdma dev has it"
	assert_eq "$(echo "$out" | jq -r '.[0].ev_max')" 4096 "ev_max"
	assert_eq "$(echo "$out" | jq -r '.[0].planes[0].ifname')" msta0 "plane ifname"
	# by name and by index (dev-get do), pretty JSON parses as well
	assert_eq "$(ctl_a -j dev show mrcsta | jq -r '.[0].index')" "$index" "dev show NAME"
	assert_eq "$(ctl_a -j -p dev show "$index" | jq -r '.[0].name')" mrcsta "dev show INDEX"
	assert_match "$(ctl_a plane show)" "dev mrcsta plane 1 ifname msta0" "plane show"
}

ev_table_while_traffic_flows() {
	two_hosts
	flow_start
	poll_until 90 every_ev_carried
	local rows text
	rows=$(evs_b)
	assert_eq "$(echo "$rows" | jq length)" 256 "EVs in the path set"
	assert_eq "$(echo "$rows" | jq '[.[] | select(.state == "good")] | length')" 256 "GOOD EVs"
	assert_eq "$(echo "$rows" | jq -r '[.[].index] | sort | .[0], .[-1]' | tr '\n' ' ')" \
		"0 255 " "EV indexes"
	# profile 0's EV bytes are UDP source ports, 2 bytes
	assert_eq "$(echo "$rows" | jq '[.[] | select(.bytes | test("^[0-9a-f]{4}$"))] | length')" \
		256 "EV bytes"
	text=$(ctl_b ev show dev mrcstb)
	echo "$text" | head -n 3
	assert_eq "$(echo "$text" | wc -l)" 257 "text lines (heading + 256)"
	assert_match "$(echo "$text" | sed -n 2p)" \
		"^10\.11\.0\.1 +0 +[0-9]+ +[0-9]+ +1 +good +none +[1-9][0-9]* " "text row"
	assert_match "$(ctl_b path show dev mrcstb)" "^dst 10\.11\.0\.1 profile 0 good 256/256" \
		"path show"
	assert_eq "$(ctl_b -j path show dev mrcstb | jq '.[0].good')" 256 "path show -j"
	assert_match "$(ctl_b stats qp dev mrcstb)" "qpn [0-9]+ profile 0 packets [1-9]" "stats qp"
	# profiles are for anyone to read; peers, paths and QPs are not
	assert_eq "$(ctl_b_nobody -j ev-profile show dev mrcstb | jq '.[0].id')" 0 \
		"ev-profile show unprivileged"
	expect_error "unprivileged ev show" "Operation not permitted" \
		ctl_b_nobody ev show dev mrcstb
	expect_error "unprivileged path show" "Operation not permitted" \
		ctl_b_nobody path show dev mrcstb
	expect_error "unprivileged stats qp" "Operation not permitted" \
		ctl_b_nobody stats qp dev mrcstb
	expect_error "unprivileged monitor" "Operation not permitted" \
		nb setpriv --reuid=65534 --regid=65534 --clear-groups timeout 5 mrcctl monitor ev
	flow_stop
}

# The longest wait of B's QPs (stats qp's stall_max_ns), ms: of the QP that waited most, and
# of the one that waited least.
stall_max_b() { ctl_b -j stats qp dev mrcstb | jq '[.[].stall_max_ns] | max // 0 | ./1e6 | floor'; }
stall_min_b() { ctl_b -j stats qp dev mrcstb | jq '[.[].stall_max_ns] | min // 0 | ./1e6 | floor'; }
# Likewise of the oldest work request, until it completed (stats qp's wr_wait_max_ns).
wr_wait_min_b() { ctl_b -j stats qp dev mrcstb | jq '[.[].wr_wait_max_ns] | min // 0 | ./1e6 | floor'; }

# 1.5 s without a way from B to A under the flow, then the way back: B's QPs waited at least the
# outage and, found at once, less than 2.5 s, with a return resend (OUTAGE_WAIT: the longest
# wait, in ms; OUTAGE_RESENDS: its return resends).
outage_b() {
	local resends0
	resends0=$(counter mrcstb return_resends)
	nb tc qdisc add dev mstb0 root netem loss 100%
	sleep 1.5
	nb tc qdisc del dev mstb0 root
	poll_until 30 eval '[ "$(stall_min_b)" -ge 1300 ]' ||
		fail "1.5 s without a way to A: the longest waits of B's QPs are" \
			"$(stall_min_b) to $(stall_max_b) ms"
	OUTAGE_WAIT=$(stall_max_b)
	# a work request on the wire then completed after the outage too (its wait is counted
	# when it completes: the PSN's resend may be acknowledged before the WQE completes)
	poll_until 30 eval '[ "$(wr_wait_min_b)" -ge 1300 ]' ||
		fail "1.5 s without a way to A: B's oldest work requests waited $(wr_wait_min_b) ms at most"
	OUTAGE_RESENDS=$(( $(counter mrcstb return_resends) - resends0 ))
	echo "1.5 s without a way to A: B's QPs waited $(stall_min_b) to $OUTAGE_WAIT ms;" \
		"$OUTAGE_RESENDS resent when a way was back"
	[ "$OUTAGE_WAIT" -lt 2500 ] && [ "$OUTAGE_RESENDS" -ge 1 ]
}

# stats reset-stall, and a way back found at once: 1.5 s without a way to A outlast the QPs'
# retransmit timeout (1.07 s: --qp-timeout 18), whose resend dies too; the next one is twice
# as far, but the first probe answered after the outage sends the oldest PSN again (counter
# return_resends), so each QP's longest wait is the outage, not 1.07 + 2.14 s. Once every QP's wait
# has ended, the reset leaves only the flow's ordinary waits (a round trip or a few). An
# unknown QP is refused by name, and nobody but the network administrator may reset.
way_back_found_at_once_and_stall_reset() {
	two_hosts
	flow_start
	local before after qpn
	# Once in CI neither QP resent when the way was back and both waited the doubled timeout
	# (3471 ms; 3 reruns then: 1605-1663 ms, 2 resends): an outage that shows so is run once
	# more, and only a second one fails. Issue 16 follows the miss up.
	if ! outage_b; then
		echo "no return resend after the outage: once more"
		ctl_b stats reset-stall dev mrcstb
		outage_b || fail "after the outage, a QP waited $OUTAGE_WAIT ms for its way back" \
			"($OUTAGE_RESENDS return resends)"
	fi
	before=$OUTAGE_WAIT
	ctl_b stats reset-stall dev mrcstb
	sleep 1
	after=$(stall_max_b)
	echo "longest wait of B's QPs: $before ms, then $after ms in the second after the reset"
	[ "$after" -lt 500 ] || fail "after the reset, the longest wait is still $after ms"
	qpn=$(ctl_b -j stats qp dev mrcstb | jq '.[0].qpn')
	ctl_b stats reset-stall dev mrcstb qpn "$qpn"
	expect_error "reset an unknown QP" "no such QP" \
		ctl_b stats reset-stall dev mrcstb qpn 16777215
	expect_error "unprivileged reset" "Operation not permitted" \
		ctl_b_nobody stats reset-stall dev mrcstb
	! grep -qE "[1-9][0-9]* errors|FATAL|completion status" $FLOW_LOG ||
		{ tail -n 5 $FLOW_LOG; fail "the flow failed"; }
	flow_stop
}

deny_and_allow_one_ev() {
	two_hosts
	flow_start
	local i=7 p1 p2 other1 other2
	ip netns exec mstb mrcctl -j monitor >$MON_LOG 2>&1 &
	local mon=$!
	ip netns exec mstb mrcctl monitor ev >$MON_LOG.txt 2>&1 &
	local mon_text=$!
	wait_until 10 monitor_joined 2
	poll_until 90 every_ev_carried

	ctl_b ev set dev mrcstb dst $A4 index $i state deny
	assert_eq "$(ev_b $i state)" denied "state after deny"
	assert_eq "$(ev_b $i reason)" controller "reason after deny"
	assert_match "$(ctl_b path show dev mrcstb)" "good 255/256" "path show after deny"
	assert_eq "$(ctl_b -j ev show dev mrcstb state denied | jq -r '.[].index')" $i \
		"ev show state denied"
	sleep 0.5
	p1=$(ev_b $i packets)
	other1=$(ev_b $((i + 1)) packets)
	sleep 3
	p2=$(ev_b $i packets)
	other2=$(ev_b $((i + 1)) packets)
	echo "EV $i packets $p1 -> $p2 while denied; EV $((i + 1)) $other1 -> $other2"
	assert_eq "$p2" "$p1" "packets of the denied EV"
	[ "$other2" -gt "$other1" ] || fail "the flow stopped while EV $i was denied"

	ctl_b ev set dev mrcstb dst $A4 index $i state allow
	assert_eq "$(ev_b $i state)" good "state after allow"
	assert_match "$(ctl_b path show dev mrcstb)" "good 256/256" "path show after allow"
	(poll_until 30 eval '[ "$(ev_b $i packets)" -gt "$p2" ]') ||
		fail "EV $i carries nothing since it was allowed"
	echo "EV $i after allow: $(evs_b | jq -c ".[] | select(.index == $i)")"

	# profile 0's event mask: with assumed-bad alone, denying and allowing EV 9 (entering
	# DENIED, then GOOD) raises no event; with every state again, EV 11's do, at once
	ctl_b ev-profile set dev mrcstb id 0 event-mask assumed-bad
	assert_eq "$(profiles_b | jq -r '.[0].event_mask')" assumed-bad "event mask shown"
	ctl_b ev set dev mrcstb dst $A4 index 9 state deny
	ctl_b ev set dev mrcstb dst $A4 index 9 state allow
	ctl_b ev-profile set dev mrcstb id 0 event-mask good,assumed-bad,denied
	ctl_b ev set dev mrcstb dst $A4 index 11 state deny
	ctl_b ev set dev mrcstb dst $A4 index 11 state allow

	sleep 0.5
	kill -TERM $mon $mon_text
	wait $mon || fail "monitor exited with $? on SIGTERM"
	wait $mon_text || fail "monitor (text) exited with $? on SIGTERM"
	cat $MON_LOG $MON_LOG.txt
	grep -E "dev mrcstb profile 0 dst 10\.11\.0\.1 index $i from good -> to denied" \
		$MON_LOG.txt || fail "the text monitor's line of EV $i denied"
	assert_eq "$(jq -c "select(.index == $i) | [.dev, .dst, .from, .to, .reason]" $MON_LOG |
		tr '\n' ' ')" \
		'["mrcstb","10.11.0.1","good","denied","controller"] ["mrcstb","10.11.0.1","denied","good","controller"] ' \
		"events seen by monitor"
	assert_eq "$(jq -c 'select(.index == 9)' $MON_LOG)" "" "EV 9's events, masked out"
	assert_eq "$(jq -c 'select(.index == 11) | .to' $MON_LOG | tr '\n' ' ')" \
		'"denied" "good" ' "EV 11's events, the mask whole again"
	flow_stop
}

bad_input_is_refused() {
	two_hosts
	flow_start
	local before rc
	ctl_b ev set dev mrcstb dst $A4 index 3 state deny
	before=$(evs_b | jq -c '[.[] | [.index, .state]]')

	# refused locally: exit 2, nothing sent
	expect_error "unknown object" "^mrcctl: unknown object 'evs'" ctl_b evs show
	expect_error "unknown command" "^mrcctl: ev: unknown command 'frob'" ctl_b ev frob
	expect_error "unknown keyword" "unknown keyword 'colour'" ctl_b ev show dev mrcstb colour red
	expect_error "missing index" "missing index" ctl_b ev set dev mrcstb state deny
	expect_error "index beyond 4095" "out of range" ctl_b ev set dev mrcstb index 4096 state deny
	expect_error "unknown state" "invalid state 'sideways'" \
		ctl_b ev set dev mrcstb index 1 state sideways
	expect_error "bad dst" "invalid address" ctl_b ev set dev mrcstb dst 10.11.0.300 index 1 \
		state deny
	expect_error "bad EV bytes" "invalid EV bytes '0xzz'" \
		ctl_b ev-profile add dev mrcstb id 1 mode exp ev 0xzz
	expect_error "EV bytes > 32" "more than 32 bytes" \
		ctl_b ev-profile add dev mrcstb id 1 mode exp ev "$(printf 'ab%.0s' $(seq 33))"
	rc=0; ctl_b ev set dev mrcstb index 1 state sideways 2>/dev/null || rc=$?
	assert_eq "$rc" 2 "exit status of a refused command line"

	# refused by the kernel or at device resolution: exit 1
	expect_error "unknown device" "^mrcctl: unknown device 'nosuch'" \
		ctl_b ev set dev nosuch index 1 state deny
	expect_error "device of another namespace" "unknown device 'mrcsta'" ctl_b dev show mrcsta
	expect_error "index beyond the profile" "^mrcctl: EV index beyond" \
		ctl_b ev set dev mrcstb dst $A4 index 256 state deny
	expect_error "no such path set" "^mrcctl: .*no path set" \
		ctl_b ev set dev mrcstb dst 2001:db8::99 index 1 state deny
	expect_error "unprivileged change" "^mrcctl: Operation not permitted" \
		ctl_b_nobody ev set dev mrcstb dst $A4 index 1 state deny
	expect_error "unprivileged allow" "^mrcctl: Operation not permitted" \
		ctl_b_nobody ev set dev mrcstb dst $A4 index 3 state allow
	expect_error "stev field too wide" "^mrcctl: .*wider than the EV format" \
		ctl_b ev-fmt-profile add dev mrcstb id 1 mode stev width 32 width 1
	expect_error "no such plane" "^mrcctl: .*no such plane" ctl_b plane set dev mrcstb id 3 admin down
	expect_error "probe beyond the path set" "^mrcctl: .*no such EV in the path set" \
		ctl_b probe dev mrcstb dst $A4 index 256
	expect_error "probe, no path set" "^mrcctl: .*no path set" \
		ctl_b probe dev mrcstb dst 2001:db8::99 index 1
	expect_error "unprivileged probe" "^mrcctl: Operation not permitted" \
		ctl_b_nobody probe dev mrcstb dst $A4 index 1
	rc=0; ctl_b ev set dev mrcstb dst $A4 index 256 state deny 2>/dev/null || rc=$?
	assert_eq "$rc" 1 "exit status of a kernel refusal"

	assert_eq "$(evs_b | jq -c '[.[] | [.index, .state]]')" "$before" "EV states after refusals"
	flow_stop
}

# One-shot probes over chosen EVs of B's path set towards A: every one answered, with its
# round trip, by A's device; the EVs' health is not theirs to judge (nothing changes state).
one_shot_probes_answered() {
	two_hosts
	flow_start
	local out=/tmp/mrcctl-probe.json states answered0
	states=$(evs_b | jq -c '[.[] | [.index, .state]]')
	answered0=$(counter mrcsta probes_answered)
	ctl_b -j probe dev mrcstb dst $A4 index 0,1,2,255 timeout 5000 >$out ||
		fail "mrcctl probe failed"
	cat $out
	assert_eq "$(jq -c '[.[] | [.index, .answered]]' $out)" \
		'[[0,true],[1,true],[2,true],[255,true]]' "probes answered"
	assert_eq "$(jq '[.[] | select(.rtt_ns > 0 and .rtt_ns < 5000000000)] | length' $out)" 4 \
		"round trips measured"
	[ "$(counter mrcsta probes_answered)" -ge $((answered0 + 4)) ] ||
		fail "A's device answered $(( $(counter mrcsta probes_answered) - answered0 )) probes"
	assert_eq "$(evs_b | jq -c '[.[] | [.index, .state]]')" "$states" "EV states after probes"
	ctl_b probe dev mrcstb dst $A4 index 7 | grep -E '^dst 10\.11\.0\.1 .*index 7 answered yes' ||
		fail "the text output of mrcctl probe"
	ctl_b probe send dev mrcstb dst $A4 profile 0 index 8 | grep -E 'index 8 answered yes' ||
		fail "mrcctl probe send"
	flow_stop
}

# ib_write_bw from B to A, 200 iterations of 64 KiB; fails unless it completes and the wire
# carried at least that much from B.
write_bw_b_to_a() {
	local gid_a gid_b before after
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	before=$(veth_tx_bytes mstb mstb0)
	server_a 18515 timeout 120 ib_write_bw -d mrcsta -x "$gid_a" -F \
		-s 65536 -n 200
	nb timeout 120 ib_write_bw -d mrcstb -x "$gid_b" -F -s 65536 -n 200 \
		$A4 | grep -A1 '#bytes' || fail "ib_write_bw client"
	wait "$SERVER_PID" || fail "ib_write_bw server"
	after=$(veth_tx_bytes mstb mstb0)
	echo "B sent $((after - before)) bytes"
	[ $((after - before)) -ge $((200 * 65536)) ] || fail "the wire carried too little"
}

profiles_b() { ctl_b -j ev-profile show dev mrcstb; }
default_b() { ctl_b -j dev show mrcstb | jq -r '.[0].default_profile'; }
one_ev_carried() { [ "$(evs_b profile 1 | jq -r '.[0].packets')" -gt 100 ]; }

# Pinning B's new QPs to one EV (UDP source port 0xc000): an explicit profile of one EV made
# the device's default; a QP made then sends every packet on it, and keeps its profile in use.
pin_new_qps_to_one_ev() {
	two_hosts
	local text rows
	ctl_b ev-profile add dev mrcstb id 1 mode exp ev 0xc000 min-active 1
	text=$(ctl_b ev-profile show dev mrcstb id 1)
	echo "$text"
	assert_match "$text" "^id 1 mode exp fmt 0 state offline count 1 min_active 1 " "show"
	assert_eq "$(profiles_b | jq -c '[.[] | [.id, .mode, .count]]')" \
		'[[0,"auto",256],[1,"exp",1]]' "show -j"
	expect_error "an offline default" "^mrcctl: .*must be online" \
		ctl_b dev set dev mrcstb default-profile 1
	ctl_b ev-profile set dev mrcstb id 1 state online
	assert_eq "$(profiles_b | jq -r '.[1].state')" online "state after set"
	ctl_b dev set dev mrcstb default-profile 1
	assert_eq "$(default_b)" 1 "dev show -j default_profile"
	assert_match "$(ctl_b dev show mrcstb)" " default_profile 1" "dev show default_profile"
	assert_eq "$(ctl_a -j dev show mrcsta | jq -r '.[0].default_profile')" 0 "A's default"

	write_bw_b_to_a

	FLOW_EVS=1 flow_start
	poll_until 60 one_ev_carried
	rows=$(evs_b)
	echo "$rows" | jq -c '.[]'
	assert_eq "$(echo "$rows" | jq length)" 1 "EVs towards A, over every profile"
	assert_eq "$(echo "$rows" | jq -r '.[0].bytes')" c000 "the one EV: port 49152"
	assert_match "$(ctl_b path show dev mrcstb)" "^dst 10\.11\.0\.1 profile 1 good 1/1" \
		"path show"
	assert_match "$(ctl_b stats qp dev mrcstb)" "qpn [0-9]+ profile 1 packets [1-9]" "stats qp"
	# A's QPs answer on A's own default, profile 0
	assert_match "$(ctl_a path show dev mrcsta)" "^dst 10\.11\.0\.2 profile 0 good 256/256" \
		"A's path set"

	expect_error "the default profile offline" "^mrcctl: .*stays online" \
		ctl_b ev-profile set dev mrcstb id 1 state offline
	ctl_b dev set dev mrcstb default-profile 0
	expect_error "a profile in use" "^mrcctl: .*in use by QPs" \
		ctl_b ev-profile del dev mrcstb id 1
	ctl_b ev-profile set dev mrcstb id 1 state offline
	expect_error "EVs of a profile in use" "^mrcctl: .*in use by QPs" \
		ctl_b ev-profile set dev mrcstb id 1 ev 0xc001
	assert_eq "$(profiles_b | jq length)" 2 "profiles after the refusals"
	flow_stop
	poll_until 30 evs_b_count_is 0
	ctl_b ev-profile del dev mrcstb id 1
	assert_eq "$(profiles_b | jq -c '[.[].id]')" '[0]' "profiles after del"
}

ev_packets_b() { # PORT_HEX -> packets B sent towards A on that UDP-port EV, of any profile
	evs_b | jq "[.[] | select(.bytes == \"$1\") | .packets] | add // 0"
}

# Per-QP EV profiles, through the provider: B's mrc_stress QPs bound to profile 1 (one EV,
# port 0xc000) by mrcdv_create_qp and ib_write_bw's to profile 2 (0xc001) by MRC_EV_PROFILE,
# at the same time and towards the same A, while B's default stays profile 0: two path sets,
# each QP's packets on its own profile's EV. A bound profile cannot be deleted; an unknown, an
# offline or a malformed profile fails the QP's creation.
qps_bound_to_their_own_profiles() {
	two_hosts
	local gid_a gid_b qps
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	for p in 1 2 3; do
		ctl_b ev-profile add dev mrcstb id $p mode exp ev "0xc00$((p - 1))"
	done
	ctl_b ev-profile set dev mrcstb id 1 state online
	ctl_b ev-profile set dev mrcstb id 2 state online	# 3 stays offline

	expect_error "no such profile" "mrcdv_create_qp profile 5: error 2 " \
		nb mrc_verbs_probe mrcstb qp-profile=5
	expect_error "an offline profile" "mrcdv_create_qp profile 3: error 22 " \
		nb mrc_verbs_probe mrcstb qp-profile=3
	expect_error "profile 16 (out of range)" "mrcdv_create_qp profile 16: error 2 " \
		nb mrc_verbs_probe mrcstb qp-profile=16
	expect_error "MRC_EV_PROFILE=one" "^create_qp: error 22 " \
		nb env MRC_EV_PROFILE=one mrc_verbs_probe mrcstb qp
	expect_error "MRC_EV_PROFILE=5" "^create_qp: error 2 " \
		nb env MRC_EV_PROFILE=5 mrc_verbs_probe mrcstb qp
	nb mrc_verbs_probe mrcstb qp-profile=1 || fail "a QP bound to profile 1"
	nb env MRC_EV_PROFILE=2 mrc_verbs_probe mrcstb qp || fail "a QP bound by MRC_EV_PROFILE"
	# a QP holds its profile from its creation, before it has an address (and a path set);
	# killed, its process's QP goes and lets go of it (the last del below)
	ip netns exec mstb mrc_verbs_probe mrcstb qp-profile=2,60 >/tmp/mrcctl_hold.log 2>&1 &
	local holder=$!
	wait_until 30 grep -q "^holding" /tmp/mrcctl_hold.log
	expect_error "a profile held by a QP with no address" "^mrcctl: .*in use by QPs" \
		ctl_b ev-profile del dev mrcstb id 2
	ctl_b ev-profile set dev mrcstb id 2 state offline
	expect_error "EVs of a held profile" "^mrcctl: .*in use by QPs: its EVs do not change" \
		ctl_b ev-profile set dev mrcstb id 2 ev 0xc005
	ctl_b ev-profile set dev mrcstb id 2 state online
	kill $holder
	wait $holder 2>/dev/null || true

	FLOW_EVS=1 FLOW_ARGS="--ev-profile 1" flow_start
	local flow_server=$SERVER_PID
	server_a 18515 timeout 200 ib_write_bw -d mrcsta -x "$gid_a" -F \
		-s 65536 -D 40
	nb env MRC_EV_PROFILE=2 timeout 200 ib_write_bw -d mrcstb -x "$gid_b" \
		-F -s 65536 -D 40 $A4 >/tmp/mrcctl_bound_bw.log 2>&1 &
	local bw_pid=$!
	poll_until 60 eval '[ "$(ev_packets_b c001)" -gt 100 ] && [ "$(ev_packets_b c000)" -gt 100 ]'
	expect_error "a bound profile" "^mrcctl: .*in use by QPs" \
		ctl_b ev-profile del dev mrcstb id 2
	echo "$(evs_b | jq -c '.[] | [.bytes, .packets]')"
	ctl_b path show dev mrcstb
	assert_eq "$(ctl_b -j path show dev mrcstb | jq -c '[.[].profile] | sort')" '[1,2]' \
		"B's path sets towards A: of profiles 1 and 2, none of the default 0"
	qps=$(ctl_b -j stats qp dev mrcstb | jq -c '[.[].profile] | sort')
	assert_eq "$qps" '[1,1,2]' "B's QPs: mrc_stress's two on profile 1, ib_write_bw's on 2"
	wait "$bw_pid" || { cat /tmp/mrcctl_bound_bw.log; fail "ib_write_bw bound to profile 2"; }
	wait "$SERVER_PID" || fail "ib_write_bw server"
	SERVER_PID=$flow_server
	flow_stop
	poll_until 30 evs_b_count_is 0
	for p in 1 2 3; do
		ctl_b ev-profile del dev mrcstb id $p || fail "profile $p once its QPs are gone"
	done
}

# A generated profile: four ports 0xc100 ... 0xc103 from one field; a QP sprays over them.
generated_profile_sprays_over_its_evs() {
	two_hosts
	ctl_b ev-profile add dev mrcstb id 2 mode gen field width 16 init 0xc100 min 0 max 3 mask 3
	assert_eq "$(profiles_b | jq -c '.[] | select(.id == 2) | [.mode, .count, .fields]')" \
		'["gen",4,[{"width":16,"init":49408,"min":0,"max":3,"mask":3}]]' "show -j"
	ctl_b ev-profile set dev mrcstb id 2 state online
	ctl_b dev set dev mrcstb default-profile 2
	FLOW_EVS=4 flow_start
	poll_until 60 eval '[ "$(evs_b | jq "[.[] | select(.packets > 0)] | length")" = 4 ]'
	assert_eq "$(evs_b | jq -r '[.[].bytes] | sort | join(" ")')" "c100 c101 c102 c103" \
		"the generated EVs"
	flow_stop
}

# The commands no other test runs, in text and JSON (-j, -p), each checked by what it shows.
other_commands_work() {
	two_hosts
	ctl_b dev show | grep -E "name mrcstb .*default_profile 0" || fail "dev show (text)"
	assert_eq "$(ctl_b -j -p dev show mrcstb | jq -r '.[0].name')" mrcstb "dev show -j -p"
	ctl_b plane show dev mrcstb | grep -E "plane 1 ifname mstb0" || fail "plane show (text)"
	assert_eq "$(ctl_b -j plane show dev mrcstb | jq -c '[.[].plane]')" '[1]' "plane show -j"
	ctl_b ev help | grep -q "^usage: mrcctl ev show" || fail "ev help"

	ctl_b ev-fmt-profile add dev mrcstb id 1 mode stev width 8 width 24
	ctl_b ev-fmt-profile set dev mrcstb id 1 width 16 width 16
	ctl_b ev-fmt-profile show dev mrcstb id 1 | grep -E "^id 1 mode stev" || fail "fmt show id"
	assert_eq "$(ctl_b -j ev-fmt-profile show dev mrcstb id 1 | jq -c '.[0].widths')" \
		'[16,16]' "fmt profile widths after set"
	ctl_b ev-fmt-profile del dev mrcstb id 1

	ctl_b ev-profile add dev mrcstb id 1 mode exp ev c000 weight 2 ev c001 plane 1
	ctl_b ev-profile set dev mrcstb id 1 min-active 2 policy weighted
	assert_eq "$(ctl_b -j ev-profile show dev mrcstb id 1 |
		jq -c '.[0] | [.count, .min_active, .policy]')" '[2,2,"weighted"]' \
		"exp profile after set"
	ctl_b ev-profile show dev mrcstb id 1 | grep -E "^id 1 mode exp .*count 2 min_active 2" ||
		fail "ev-profile show (text)"
	ctl_b ev-profile add dev mrcstb id 2 mode gen field width 16 init 0xc100 max 3 mask 3
	# new fields that could make 8 EVs: the profile keeps its count, 4 (a set changes no count)
	ctl_b ev-profile set dev mrcstb id 2 field width 16 init 0xc200 max 7 mask 7
	assert_eq "$(ctl_b -j ev-profile show dev mrcstb id 2 | jq -c '.[0] | [.count, .fields]')" \
		'[4,[{"width":16,"init":49664,"min":0,"max":7,"mask":7}]]' "gen profile after set"
	ctl_b ev-profile del dev mrcstb id 2
	ctl_b ev-profile del dev mrcstb id 1
	assert_eq "$(profiles_b | jq -c '[.[].id]')" '[0]' "profiles at the end"
}

# Refused by mrcctl or the kernel with a reason; nothing changes.
profile_refusals() {
	two_hosts
	local before
	before=$(profiles_b)
	expect_error "count 0" "out of range" ctl_b ev-profile add dev mrcstb id 1 mode auto count 0
	expect_error "4097 EVs" "more than 4096 EVs" \
		ctl_b ev-profile add dev mrcstb id 1 mode exp $(for _ in $(seq 4097); do echo ev c000; done)
	expect_error "unknown fmt mode" "invalid mode 'tcp'" \
		ctl_b ev-fmt-profile add dev mrcstb id 1 mode tcp
	expect_error "EV of 1 byte" "^mrcctl: .*2 bytes" ctl_b ev-profile add dev mrcstb id 1 \
		mode exp ev c0
	expect_error "EV of 4 bytes" "^mrcctl: .*2 bytes" ctl_b ev-profile add dev mrcstb id 1 \
		mode exp ev 0xc0000001
	expect_error "min-active above count" "^mrcctl: .*min-active" \
		ctl_b ev-profile add dev mrcstb id 1 mode exp ev c000 ev c001 min-active 3
	ctl_b ev-fmt-profile add dev mrcstb id 2 mode srv6 || fail "an srv6 format profile"
	expect_error "srv6 EV of 2 bytes" "^mrcctl: .*16 bytes" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 2 mode exp ev c000
	expect_error "srv6 EV multicast" "^mrcctl: .*routable unicast" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 2 mode exp ev ff02::1
	expect_error "srv6 EV 3 segments" "at most two IPv6 addresses" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 2 mode exp ev fc00::1,fc00::2,fc00::3
	expect_error "srv6 mode auto" "^mrcctl: .*mode auto makes UDP EVs" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 2 mode auto
	ctl_b ev-fmt-profile add dev mrcstb id 3 mode stev || fail "a stev format profile"
	expect_error "stev EV of 2 bytes" "^mrcctl: .*STEV EV is 4 bytes" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 3 mode exp ev c000
	expect_error "stev mode auto" "^mrcctl: .*mode auto makes UDP EVs" \
		ctl_b ev-profile add dev mrcstb id 1 fmt 3 mode auto
	ctl_b ev-fmt-profile del dev mrcstb id 3 || fail "deleting the stev format profile"
	ctl_b ev-fmt-profile del dev mrcstb id 2 || fail "deleting the srv6 format profile"
	expect_error "delete profile 0" "^mrcctl: .*cannot be deleted" \
		ctl_b ev-profile del dev mrcstb id 0
	expect_error "default: no such profile" "^mrcctl: .*no such EV profile" \
		ctl_b dev set dev mrcstb default-profile 3
	expect_error "unprivileged add" "^mrcctl: Operation not permitted" \
		ctl_b_nobody ev-profile add dev mrcstb id 1 mode exp ev c000
	expect_error "unprivileged default" "^mrcctl: Operation not permitted" \
		ctl_b_nobody dev set dev mrcstb default-profile 0
	assert_eq "$(profiles_b)" "$before" "profiles after the refusals"
	assert_eq "$(ctl_b -j ev-fmt-profile show dev mrcstb | jq -c '[.[].id]')" '[0]' \
		"format profiles after the refusals"
	assert_eq "$(default_b)" 0 "default after the refusals"
}

ktap_run \
	dev_show_lists_the_device \
	ev_table_while_traffic_flows \
	way_back_found_at_once_and_stall_reset \
	deny_and_allow_one_ev \
	bad_input_is_refused \
	one_shot_probes_answered \
	pin_new_qps_to_one_ev \
	qps_bound_to_their_own_profiles \
	generated_profile_sprays_over_its_evs \
	other_commands_work \
	profile_refusals
