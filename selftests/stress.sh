#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrc_stress between two hosts: every RC operation (SEND, SEND_WITH_IMM, WRITE, WRITE_WITH_IMM,
# READ, both atomics, inline sends) in both directions at once on several QPs, random sizes up to
# 256 KiB plus a few of 1-8 MiB, every byte, immediate and atomic result checked by the tool;
# over a clean wire and over one that loses, reorders, duplicates and delays packets.
#
#   netns msta [ mrcsta ] msta0 <-- veth (netem) --> mstb0 [ mrcstb ] netns mstb
#              mrc_stress server                                mrc_stress client

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

lossy_wire() {
	local ns
	for ns in msta mstb; do
		ip netns exec $ns tc qdisc add dev ${ns}0 root netem \
			loss 1% reorder 25% duplicate 1% delay 1ms
	done
}

# On a clean wire, resends the peer proves spurious (it got both copies) stay under 0.5% of
# the packets sent: loss detection by send time does not mistake reordering for loss.
spurious_below() { # DEV
	local spurious sent
	spurious=$(counter "$1" spurious_resends) || spurious=0
	sent=$(counter "$1" tx_packets)
	echo "$1: $spurious spurious resends of $sent packets sent"
	[ $((spurious * 200)) -le "$sent" ] || fail "$1: $spurious spurious resends of $sent packets"
}

stress_clean_wire() {
	two_hosts
	stress --seconds 20 --qps 2 --seed 1
	stress_passed
	no_qp_errors
	spurious_below mrcsta
	spurious_below mrcstb
}

stress_lossy_wire() {
	two_hosts
	lossy_wire
	stress --seconds 30 --qps 2 --seed 2
	stress_passed
	echo "retransmits: A $(counter mrcsta retransmits), B $(counter mrcstb retransmits);" \
		"timeouts: A $(counter mrcsta timeouts), B $(counter mrcstb timeouts);" \
		"duplicates: A $(counter mrcsta duplicates), B $(counter mrcstb duplicates);" \
		"spurious resends: A $(counter mrcsta spurious_resends || echo 0)," \
		"B $(counter mrcstb spurious_resends || echo 0)"
	[ "$(counter mrcsta retransmits)" -gt 0 ] || fail "1% loss and host A never retransmitted"
	[ "$(counter mrcstb retransmits)" -gt 0 ] || fail "1% loss and host B never retransmitted"
	no_qp_errors
}

# Many QPs, small messages, a fixed amount of work.
stress_many_qps() {
	two_hosts
	stress --iterations 400 --qps 8 --max-size 4096 --large-max 0 --seed 3
	stress_passed
	no_qp_errors
}

# The extended verbs on both ends: every operation posted through ibv_wr_* (each data setter:
# one SGE or a list, two SGEs for odd ops, inline bytes or a list) on QPs from ibv_create_qp_ex,
# every completion read through ibv_start_poll on CQs from ibv_create_cq_ex.
stress_extended_verbs() {
	two_hosts
	STRESS_SERVER_ARGS="--api ex" stress --iterations 400 --qps 2 --max-size 16384 \
		--large-max 0 --seed 4 --api ex
	stress_passed
	assert_match "$STRESS_OUT" 'client on mrcstb: .* api ex' "client posted through ibv_wr_*"
	assert_match "$STRESS_SERVER_OUT" 'server on mrcsta: .* api ex' \
		"server posted through ibv_wr_*"
	assert_match "$STRESS_SERVER_OUT" 'server PASS: ' "server verdict"
	no_qp_errors
}

ktap_run \
	stress_clean_wire \
	stress_extended_verbs \
	stress_lossy_wire \
	stress_many_qps
