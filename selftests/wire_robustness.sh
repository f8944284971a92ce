#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Whatever arrives on the MRC UDP port, the kernel survives it: truncated,
# garbage and wrong-QPN packets are dropped and counted by reason, and
# out-of-window and stale packets aimed at a live QP change nothing: the
# transfer running on it finishes with every byte verified.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 (netns mstb: the sender)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_wire.sh"


expect_counter_rise() { # NAME BEFORE
	wait_until 5 test "$(counter mrcsta "$1")" -gt "$2"
}

truncated_packet_dropped() {
	two_hosts
	local before
	before=$(counter mrcsta drop_truncated)
	inject $A4 '\x10\x04\x03'
	expect_counter_rise drop_truncated "$before"
}

garbage_dropped() {
	two_hosts
	local before i
	before=$(counter mrcsta drop_bad_header)
	inject $A4 '\x70\x04\x03\x00\x00\x00\x00\x01\x00\x00\x00\x00'	# version 7
	inject $A4 '\x10\xee\x03\x00\x00\x00\x00\x01\x00\x00\x00\x00'	# opcode 0xee
	inject $A6 '\x10\x04\x01\x00\x00\x00\x00\x01\x00\x00\x00\x00'	# hdr_len too short
	for i in $(seq 1 20); do
		nb bash -c "head -c $((RANDOM % 200 + 12)) /dev/urandom >/dev/udp/$A4/$PORT"
	done
	expect_counter_rise drop_bad_header "$before"
}

unknown_qpn_dropped() {
	two_hosts
	local before ack zeros
	before=$(counter mrcsta drop_unknown_qp)
	zeros=$(printf '\\x00%.0s' $(seq 1 48))
	# a well-formed ACK (hdr_len 15 words) for QPN 0x123456, which does not exist
	ack='\x10\x20\x0f\x00\x00\x12\x34\x56\x00\x00\x00\x00'$zeros
	inject $A4 "$ack"
	inject $A6 "$ack"
	expect_counter_rise drop_unknown_qp "$before"
}

out_of_window_on_live_qp() {
	two_hosts
	local gid_a gid_b res qpn psn oow dup rc=0 out
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	server_a 18530 timeout 120 mrc_stress -d mrcsta -g "$gid_a" -p 18530
	nb timeout 120 mrc_stress -d mrcstb -g "$gid_b" -p 18530 --seconds 8 --seed 4 \
		--max-size 65536 --large-max 0 $A4 >/tmp/oow_client.out 2>&1 &
	local client=$!
	wait_until 20 sh -c "rdma resource show qp link mrcsta/1 | grep -q 'type RC state RTS'"
	res=$(rdma resource show qp link mrcsta/1 | grep 'type RC state RTS' | head -1)
	echo "live QP: $res"
	qpn=$(echo "$res" | sed -n 's/.* lqpn \([0-9]*\) .*/\1/p')
	psn=$(echo "$res" | sed -n 's/.* rq-psn \([0-9]*\) .*/\1/p')
	[ -n "$qpn" ] && [ -n "$psn" ] || fail "no QPN / rq-psn in: $res"
	oow=$(counter mrcsta drop_out_of_window)
	dup=$(counter mrcsta duplicates)
	# half the PSN space ahead of where the QP started: far beyond its
	# window; and a quarter behind: long acknowledged
	inject $A4 "$(write_packet "$qpn" $(((psn + 0x40000000) & 0xffffffff)))"
	inject $A4 "$(write_packet "$qpn" $(((psn - 0x40000000) & 0xffffffff)))"
	expect_counter_rise drop_out_of_window "$oow"
	expect_counter_rise duplicates "$dup"
	wait $client || rc=$?
	wait $SERVER_PID || rc=$((rc + 100))
	out=$(cat /tmp/oow_client.out)
	rm -f /tmp/oow_client.out
	echo "$out" | tail -1
	[ $rc -eq 0 ] || fail "mrc_stress failed (exit $rc)"
	assert_match "$out" 'client PASS: .* errors 0 ' "the live QP's transfer"
	[ "$(counter mrcsta qp_errors)" -eq 0 ] || fail "a QP failed on host A"
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed on host B"
}

device_works_after_abuse() {
	two_hosts
	local i
	for i in $(seq 1 50); do
		nb bash -c "head -c $((RANDOM % 1500 + 1)) /dev/urandom >/dev/udp/$A4/$PORT"
	done
	[ "$(counter mrcsta rx_packets)" -ge 50 ] || fail "packets were not seen"
	assert_match "$(rdma link show mrcsta/1)" "state ACTIVE" "device state"
}

ktap_run \
	truncated_packet_dropped \
	garbage_dropped \
	unknown_qpn_dropped \
	out_of_window_on_live_qp \
	device_works_after_abuse
