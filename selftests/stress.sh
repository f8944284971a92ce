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

STRESS_PORT=18520

# Run mrc_stress as server on A and client on B (the client's options rule both); print the
# summary lines and keep the client's in $STRESS_OUT.
stress() { # ARGS...
	local gid_a gid_b
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	server_a $STRESS_PORT timeout 200 mrc_stress -d mrcsta -g "$gid_a" -p $STRESS_PORT
	local rc=0
	STRESS_OUT=$(nb timeout 200 mrc_stress -d mrcstb -g "$gid_b" -p $STRESS_PORT "$@" $A4 2>&1) ||
		rc=$?
	echo "$STRESS_OUT"
	wait $SERVER_PID || rc=$((rc + 100))
	counters_of mrcsta
	counters_of mrcstb
	[ $rc -lt 100 ] || fail "mrc_stress server failed"
	[ $rc -eq 0 ] || fail "mrc_stress client failed (exit $rc)"
}

# One line with every non-zero hw counter of DEV, and the UDP drops of its netns.
counters_of() { # DEV
	local f line="$1:" ns=mst${1#mrcst}
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		[ "${f##*/}" != lifespan ] && [ "$(cat "$f")" != 0 ] && line+=" ${f##*/}=$(cat "$f")"
	done
	echo "$line"
	ip netns exec "$ns" awk '/^Udp:/ { if (!h) { split($0, n); h = 1 } else
		for (i = 2; i <= NF; i++) if (n[i] ~ /Errors$/ && $i > 0) printf "%s udp %s=%s\n", ns, n[i], $i }' \
		ns="$ns" /proc/net/snmp
}

# The client's summary says PASS, no errors, and every op type completed at least once.
stress_passed() {
	local line op
	line=$(echo "$STRESS_OUT" | grep -E '^mrc_stress: client (PASS|FAIL):')
	assert_match "$line" ' PASS: ' "client verdict"
	assert_match "$line" ' errors 0 ' "client errors"
	for op in send send_imm write write_imm read cmp_swap fetch_add; do
		assert_match "$line" "[( ]$op [1-9][0-9]* " "completed $op operations"
	done
	assert_match "$line" ' bytes_verified [1-9][0-9]{5,} ' "bytes verified"
}

no_qp_errors() {
	[ "$(counter mrcsta qp_errors)" -eq 0 ] || fail "a QP failed on host A"
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed on host B"
}

lossy_wire() {
	local ns
	for ns in msta mstb; do
		ip netns exec $ns tc qdisc add dev ${ns}0 root netem \
			loss 1% reorder 25% duplicate 1% delay 1ms
	done
}

stress_clean_wire() {
	two_hosts
	stress --seconds 20 --qps 2 --seed 1
	stress_passed
	no_qp_errors
}

stress_lossy_wire() {
	two_hosts
	lossy_wire
	stress --seconds 30 --qps 2 --seed 2
	stress_passed
	echo "retransmits: A $(counter mrcsta retransmits), B $(counter mrcstb retransmits);" \
		"timeouts: A $(counter mrcsta timeouts), B $(counter mrcstb timeouts);" \
		"duplicates: A $(counter mrcsta duplicates), B $(counter mrcstb duplicates)"
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

ktap_run \
	stress_clean_wire \
	stress_lossy_wire \
	stress_many_qps
