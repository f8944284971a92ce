#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Multipath over an SRv6 fabric: the sender picks every packet's spine. Host B's EVs are SRv6
# segments (fc00:e<i>::<j>, 64 per spine), its packets carry a segment routing header that
# the kernel's seg6 helper inserts, the spines run the stock seg6local End and the hosts
# the stock SRH receive path. Leaf B routes plain traffic to A over spine 1 alone, so an
# even spread over the four spines is the source routing's doing, not a hash's.
#
#                        +-- spine 1 (End on fc00:e1::/64) --+
#   [ host A ] -- [ leaf A ] -- spine 2 (End on fc00:e2::/64) -- [ leaf B ] -- [ host B ]
#     2001:db8:1::1     +-- spine 3 ...  spine 4 ... --------+      2001:db8:2::1
#
#   B -> A data: DA fc00:e<i>::<j>, SRH [2001:db8:1::1, fc00:e<i>::<j>], segments left 1

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"
source "$(dirname "$0")/lib_wire.sh"

SPINES=4
FABRIC_FAMILY=6		# SRv6 EVs shape IPv6 packets: the tools use the hosts' IPv6 GIDs

# The SRv6 fabric, both hosts spraying over SRv6 EVs, and leaf B's plain route to A pinned to
# spine 1.
srv6_world() {
	clos_srv6_world $SPINES
	ns_ex mstlb ip -6 route replace 2001:db8:1::/64 via 2001:db8:b1::1
}
FAILOVER_FABRIC=srv6_world
# spine 2's EVs, 1 5 9 ... (64 of 256), are all marked; under emulation's stalls a few
# healthy EVs may be condemned with them (92 of 256 once in CI)
FAILOVER_DEAD_EVS='.index % 4 == 1'
FAILOVER_MARKED_MIN=64
FAILOVER_MARKED_MAX=128
source "$(dirname "$0")/lib_failover.sh"

srv6_one_qp_uses_every_spine() {
	srv6_world
	clos_sprayed_transfer $SPINES $((SPINES * 64))
	# the EVs' bytes (hex in JSON): EV 0 is spine 1's first SID, EV 5 spine 2's second
	assert_eq "$(jq -r '.[] | select(.index == 0 or .index == 5) | .bytes' $CLOS_EVS_JSON |
		tr '\n' ' ')" "fc0000e1000000000000000000000000 fc0000e2000000000000000000000001 " \
		"EVs 0 and 5"
	# the sender's round robin over the spines' SIDs
	clos_spines_even $SPINES
	no_qp_errors
}

# One-shot probes take the EVs' own paths: with spine 2's link to leaf A down, the probes of
# B's EVs through spine 2 (1 and 5: the spine varies fastest) go unanswered, the others are
# answered; the probes judge nothing (the EVs' states are the path set's business).
srv6_one_shot_probes_follow_the_segments() {
	srv6_world
	local out=/tmp/multipath-srv6-probe.json pid
	(stress --seconds 25 --qps 1 --seed 21) >/tmp/multipath-srv6-probe-stress.out 2>&1 &
	pid=$!
	wait_until 60 evs_b_exist
	nb mrcctl -j probe dev mrcstb dst $CLOS_A6 index 0,1,2,3,4,5 timeout 3000 >$out ||
		fail "mrcctl probe failed"
	assert_eq "$(jq -c '[.[] | select(.answered)] | length' $out)" 6 "probes on a whole fabric"
	clos_spine_a_link 2 down
	nb mrcctl -j probe dev mrcstb dst $CLOS_A6 index 0,1,2,3,4,5 timeout 1000 >$out ||
		fail "mrcctl probe failed"
	cat $out
	assert_eq "$(jq -c '[.[] | select(.answered) | .index]' $out)" '[0,2,3,4]' \
		"probes answered with spine 2 cut off"
	clos_spine_a_link 2 up
	wait $pid || { cat /tmp/multipath-srv6-probe-stress.out; fail "mrc_stress failed"; }
	no_qp_errors
}

# Bytes spine I received from leaf A (the A -> B direction).
spine_bytes_from_a() { # I
	ns_ex msts$1 cat /sys/class/net/msts$1-a/statistics/rx_bytes
}

# What spines 1..SPINES received from leaf A while B wrote 1000 x 64 KiB to A, space-separated.
ack_bytes_by_spine() {
	local i before=() out=""
	for i in $(seq 1 $SPINES); do before[i]=$(spine_bytes_from_a $i); done
	clos_perftest ib_write_bw 18515 -s 65536 -n 1000 >/dev/null
	for i in $(seq 1 $SPINES); do out+="$(($(spine_bytes_from_a $i) - before[i])) "; done
	echo "$out"
}

# The answers to a request retrace its segments: with leaf A's plain route to B pinned to
# spine 1 as well, A's ACKs of B's writes still cross the four spines evenly, each over the
# spine B's packet came by; with the module told to route answers plainly
# (srv6_reply_reverse=N) they all take spine 1.
srv6_answers_retrace_the_segments() {
	local param=/sys/module/mrc/parameters/srv6_reply_reverse bytes b sum=0 plain
	srv6_world
	ns_ex mstla ip -6 route replace 2001:db8:2::/64 via 2001:db8:a1::2
	bytes=$(ack_bytes_by_spine)
	echo "A -> B bytes by spine, answers reversed: $bytes"
	for b in $bytes; do sum=$((sum + b)); done
	[ $sum -ge 200000 ] || fail "only $sum bytes of ACKs"
	for b in $bytes; do
		[ $((b * SPINES * 2)) -ge $sum ] || fail "a spine carried $b of $sum ACK bytes"
	done
	echo N >$param
	plain=$(ack_bytes_by_spine) || true	# the default back before anything can fail
	echo Y >$param
	echo "A -> B bytes by spine, answers routed: $plain"
	set -- $plain
	[ $# -eq $SPINES ] || fail "the transfer with routed answers failed"
	[ $((($2 + $3 + $4) * 10)) -lt "$1" ] || fail "routed answers left spine 1"
	no_qp_errors
}

# Answers retrace only segments of the responder's own EVs (issue 15, F7): a request or probe
# that B sends to A through spine 3's SID fc00:e3::ff -- a working End SID, but none of A's
# EVs -- is answered plainly, and leaf A, which would send an answer through that SID to a
# sink, sends it nothing. The live transfer's own segments are never refused.
srv6_answers_refuse_foreign_segments() {
	local pid res qpn psn before foreign=${CLOS_SID}3::ff
	srv6_world
	(stress --seconds 20 --qps 1 --seed 23) >/tmp/multipath-srv6-foreign.out 2>&1 &
	pid=$!
	wait_until 60 evs_b_exist
	ns_ex mstla ip link add mstsink type dummy
	ns_ex mstla ip link set mstsink up
	ns_ex mstla ip -6 route add $foreign/128 dev mstsink
	res=$(rdma resource show qp link mrcsta/1 | grep 'type RC state RTS' | head -n 1)
	qpn=$(echo "$res" | sed -n 's/.* lqpn \([0-9]*\) .*/\1/p')
	psn=$(echo "$res" | sed -n 's/.* rq-psn \([0-9]*\) .*/\1/p')
	[ -n "$qpn" ] && [ -n "$psn" ] || fail "no QPN / rq-psn of A in: $res"
	before=$(counter mrcsta reply_srh_refused) || before=none
	# B's leaf inserts the foreign segment into what B sends A (the kernel's seg6 inline
	# mode on forwarded packets), as any router on the way could
	ns_ex mstlb ip -6 route add $CLOS_A6/128 encap seg6 mode inline segs $foreign \
		via 2001:db8:b3::1
	# a WRITE long acknowledged (answered by an ACK), and a PROBE
	inject $CLOS_A6 "$(write_packet "$qpn" $(((psn - 4096) & 0xffffff)))"
	inject $CLOS_A6 "$(probe_packet 77 0)"
	ns_ex mstlb ip -6 route del $CLOS_A6/128
	sleep 1
	counters_of mrcsta
	assert_eq "$(ns_ex mstla cat /sys/class/net/mstsink/statistics/tx_packets)" 0 \
		"answers sent through the foreign SID"
	assert_eq "$before" 0 "the live transfer's own segments refused"
	wait_until 10 counter_ge mrcsta reply_srh_refused 2
	wait $pid || { cat /tmp/multipath-srv6-foreign.out; fail "mrc_stress failed"; }
	no_qp_errors
}

srv6_spine_link_down_and_back() {
	spine_failure_under_stress "SRv6, link down" "clos_spine_a_link 2 down" \
		"clos_spine_a_link 2 up" 1000
}

srv6_blackhole_on() { ns_ex msts2 tc qdisc add dev msts2-a root netem loss 100%; }
srv6_blackhole_off() { ns_ex msts2 tc qdisc del dev msts2-a root; }
srv6_spine_blackhole_and_back() {
	spine_failure_under_stress "SRv6, blackhole" srv6_blackhole_on srv6_blackhole_off
}

ktap_run \
	srv6_one_qp_uses_every_spine \
	srv6_one_shot_probes_follow_the_segments \
	srv6_answers_retrace_the_segments \
	srv6_answers_refuse_foreign_segments \
	srv6_spine_link_down_and_back \
	srv6_spine_blackhole_and_back
