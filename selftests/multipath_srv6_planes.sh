#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two planes as an SRv6 fabric: each host's mrc device sends over two netdevs, each into a
# leaf-spine fabric of its own (lib_clos.sh clos_srv6_two_planes), every spine runs the
# stock seg6local End on its SIDs, and each of the hosts' 256 explicit SRV6 EVs names one
# spine (fc00:e<i>::<j>) and is bound to that spine's plane. The sender alone chooses each
# packet's plane and spine: 8 disjoint paths, no hash involved.
#
#                    [ leaf A  mstla ] == spines 1 ... 4 (End) == [ leaf B  mstlb ]
#   [ host A ]--msta0                                                       mstb0--[ host B ]
#             --msta1 [ leaf A2 mstlc ] == spines 5 ... 8 (End) == [ leaf B2 mstld ] mstb1--
#
#   B -> A on EV 5: plane 2, DA fc00:e6::0, SRH [2001:db8:1::1, fc00:e6::0], via spine 6

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"

SPINES=4		# per plane
FABRIC_FAMILY=6		# SRv6 EVs shape IPv6 packets: the tools use the hosts' IPv6 GIDs
source "$(dirname "$0")/lib_failover.sh"

# One QP crosses all eight spines evenly by its EVs alone, half of them on each plane.
srv6_two_planes_one_qp_uses_every_spine() {
	clos_srv6_two_planes $SPINES
	clos_sprayed_transfer $((2 * SPINES)) 256
	# EV k: spine k mod 8 + 1; spines 1-4 are plane 1's
	assert_eq "$(jq -c '[.[] | select(.index == 0 or .index == 5) | [.bytes, .plane]]' \
		$CLOS_EVS_JSON)" \
		'[["fc0000e1000000000000000000000000",1],["fc0000e6000000000000000000000000",2]]' \
		"EVs 0 and 5"
	assert_eq "$(jq -c '[group_by(.plane)[] | [.[0].plane, length]]' $CLOS_EVS_JSON)" \
		'[[1,128],[2,128]]' "EVs per plane"
	clos_spines_even $((2 * SPINES))
	no_qp_errors
}

# Spine 6 (plane 2) of the SRv6 planes loses its link to leaf A2: exactly its 32 EVs die.
srv6_two_planes_spine_link_down_and_back() {
	FAILOVER_FABRIC="clos_srv6_two_planes $SPINES" FAILOVER_SPINE=6 FAILOVER_REF_SPINE=5 \
		FAILOVER_DEAD_EVS='.index % 8 == 5' FAILOVER_MARKED_MIN=32 FAILOVER_MARKED_MAX=64 \
		spine_failure_under_stress "SRv6 plane 2, link down" "clos_spine_a_link 6 down" \
		"clos_spine_a_link 6 up" 1000
}

ktap_run \
	srv6_two_planes_one_qp_uses_every_spine \
	srv6_two_planes_spine_link_down_and_back
