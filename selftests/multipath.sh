#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Multipath over a leaf-spine fabric whose leaves hash the UDP ports (ECMP): one QP's packets,
# sprayed over the device's EVs (UDP source ports), cross every spine, each EV carrying its
# share; a spine whose link
# dies or that silently drops everything is bypassed and, repaired, used again.
#
#   [ host A ] -- [ leaf A ] == 4 spines == [ leaf B ] -- [ host B ]    (lib_clos.sh)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"
source "$(dirname "$0")/lib_failover.sh"

SPINES=4

one_qp_uses_every_spine() {
	local i fair
	clos_fabric $SPINES
	clos_sprayed_transfer $SPINES 256
	fair=$CLOS_FAIR
	# The leaf's hash of 256 ports over 4 links is a random draw (its seed is per boot):
	# each spine carries from half to twice its fair share; one carrying none would
	# mean the QP did not spray.
	for i in $(seq 1 $SPINES); do
		[ "${CLOS_MOVED[i]}" -ge $((fair / 2)) ] || fail "spine $i carried ${CLOS_MOVED[i]} bytes"
		[ "${CLOS_MOVED[i]}" -le $((fair * 2)) ] || fail "spine $i carried ${CLOS_MOVED[i]} bytes"
	done
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed"
}

# STEV EVs: 256 EVs under one UDP source port, told apart by 16 bits of IPv6 flow label,
# over a leaf B that hashes the flow label with the addresses (fib_multipath_hash_policy
# 0, no ports): the labels alone spread one QP over every spine.
stev_evs_spread_by_flow_label() {
	local i fair
	clos_fabric $SPINES
	ns_ex mstlb sysctl -qw net.ipv6.fib_multipath_hash_policy=0
	nb mrcctl ev-fmt-profile add dev mrcstb id 1 mode stev width 16 width 16
	nb mrcctl ev-fmt-profile set dev mrcstb id 1 state online
	nb mrcctl ev-profile add dev mrcstb id 1 fmt 1 mode gen count 256 \
		field width 16 min 1 max 256 mask 0x1ff field width 16 init 0xc000
	nb mrcctl ev-profile set dev mrcstb id 1 state online
	nb mrcctl dev set dev mrcstb default-profile 1
	clos_sprayed_transfer $SPINES 256
	# EV i: flow label bits i + 1, port 0xc000 for all
	assert_eq "$(jq -r '.[] | select(.index == 0 or .index == 255) | .bytes' $CLOS_EVS_JSON |
		tr '\n' ' ')" "0001c000 0100c000 " "EVs 0 and 255"
	fair=$CLOS_FAIR
	for i in $(seq 1 $SPINES); do
		[ "${CLOS_MOVED[i]}" -ge $((fair / 2)) ] && [ "${CLOS_MOVED[i]}" -le $((fair * 2)) ] ||
			fail "spine $i carried ${CLOS_MOVED[i]} bytes"
	done
	no_qp_errors
}

# Spine 2 loses its link to leaf A (ip link set down at both ends).
spine_link_down_and_back() {
	# link back up: every EV GOOD again within 1 s
	spine_failure_under_stress "link down" "clos_spine_a_link 2 down" "clos_spine_a_link 2 up" \
		1000
}

# Spine 2 silently drops everything towards leaf A: no link goes down, nothing tells anyone.
blackhole_on() { ns_ex msts2 tc qdisc add dev msts2-a root netem loss 100%; }
blackhole_off() { ns_ex msts2 tc qdisc del dev msts2-a root; }
spine_blackhole_and_back() {
	spine_failure_under_stress "blackhole" blackhole_on blackhole_off
}

# Every spine loses its link to leaf A: no path is left. The QPs follow RC's rules -- retry
# with back-off, then fail with an error completion -- within their timeout; nothing hangs,
# and the devices and the module go away cleanly afterwards (cleanup, rmmod).
all_paths_dead() {
	local gid_a gid_b client t0 rc=0 elapsed out=/tmp/multipath-dead.out i sampler retries
	local qps=/tmp/multipath-dead-qps.json
	clos_fabric $SPINES
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	server_a $STRESS_PORT timeout 100 mrc_stress -d mrcsta -g "$gid_a" -p $STRESS_PORT
	# posting ends 5 s after the failure and the client gives up 5 s later: a side with
	# nothing in flight has nothing to retry (mrc_stress holds a WRITE back until the peer
	# has checked the range, and the peer's word crosses the dead fabric too: once in CI
	# B's client so waited out a 20 s timeout after 60 s of posting, none of its QPs retrying)
	nb timeout 100 mrc_stress -d mrcstb -g "$gid_b" -p $STRESS_PORT --seconds 10 --qps 2 \
		--retry-cnt 3 --timeout 5 $A4 >$out 2>&1 &
	client=$!
	sleep 5
	t0=$(now_ms)
	for i in $(seq 1 $SPINES); do clos_spine_a_link $i down; done
	# meanwhile the stuck QPs of both hosts show it: PSNs in flight, retries climbing to the
	# retry count
	(while kill -0 $client 2>/dev/null; do
		na mrcctl -j stats qp dev mrcsta
		nb mrcctl -j stats qp dev mrcstb
		sleep 0.5
	done) >$qps 2>/dev/null &
	sampler=$!
	wait $client || rc=$?
	elapsed=$(( $(now_ms) - t0 ))
	wait $sampler || true
	retries=$(jq -s '[.[][] | .retries] | max // 0' $qps)
	cat $out
	echo "all paths dead: the client ended (exit $rc) after ${elapsed} ms;" \
		"B: qp_errors $(counter mrcstb qp_errors) timeouts $(counter mrcstb timeouts)" \
		"ev_marked_bad $(counter mrcstb ev_marked_bad); A: qp_errors" \
		"$(counter mrcsta qp_errors) timeouts $(counter mrcsta timeouts)"
	echo "all paths dead: most retries seen in mrcctl stats qp: $retries"
	[ "$retries" -ge 1 ] && [ "$retries" -le 4 ] ||
		{ echo "the QPs, first and last seen: $(jq -s -c 'first, last' $qps)"
		  fail "retries $retries (retry count 3)"; }
	[ "$(jq -s '[.[][] | select(.retries > 0) | .in_flight] | max // 0' $qps)" -ge 1 ] ||
		fail "a retrying QP had nothing in flight"
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "the client should fail with an error, not exit $rc"
	[ $elapsed -lt 30000 ] || fail "it took ${elapsed} ms to fail"
	# the first QP to run out of retries may be either host's; the other's peer then goes
	[ $(( $(counter mrcsta qp_errors) + $(counter mrcstb qp_errors) )) -ge 1 ] || fail "no QP error"
	# by RC's rules: a QP errs once its retry count (3) is spent on timeouts
	[ $(( $(counter mrcsta timeouts) + $(counter mrcstb timeouts) )) -ge 3 ] ||
		fail "a QP failed before it had retried"
	kill $SERVER_PID 2>/dev/null || true
	wait $SERVER_PID || true
	# nothing is left behind: every verbs object of both processes is gone (the server,
	# which the kill above may not reach inside its netns, ends on its own QPs' errors)
	wait_until 30 no_resources mrcstb
	wait_until 30 no_resources mrcsta
}

ktap_run \
	one_qp_uses_every_spine \
	stev_evs_spread_by_flow_label \
	spine_link_down_and_back \
	spine_blackhole_and_back \
	all_paths_dead
