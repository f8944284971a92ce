#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Whatever arrives on the MRC UDP port, the kernel survives it: truncated,
# garbage and wrong-QPN packets are dropped and counted by reason.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 (netns mstb: the sender)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

PORT=4791

# Send the bytes given as \xNN escapes from host B to host A's MRC port.
inject() { # ADDR BYTES
	nb bash -c "printf '$2' >/dev/udp/$1/$PORT"
}

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
	device_works_after_abuse
