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
	srv6_spine_link_down_and_back \
	srv6_spine_blackhole_and_back
