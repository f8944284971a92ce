#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Connections set up by the RDMA connection manager over mrc: the MAD layer opens the port (a
# GSI QP, QP 1, whose CM messages travel as mrc datagrams), and librdmacm's tools, unchanged,
# connect over IPv4 and IPv6 and move data on the multipath RC QPs they get: rping with its
# ping data validated, ucmatose, rdma_server / rdma_client, perftest with -R.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 [ mrcstb ] (netns mstb)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

CM_PORT=7471

cm_hosts() {
	modprobe rdma_ucm || fail "cannot load rdma_ucm"
	two_hosts
}

# Start "$@" in netns A and wait until it listens (a cm_id in LISTEN on mrcsta).
cm_server_a() { # CMD...
	na "$@" &
	SERVER_PID=$!
	wait_until 20 sh -c "rdma resource show cm_id | grep -q 'LISTEN'"
}

gsi_port_open() {
	cm_hosts
	local log
	log=$(dmesg | grep -E "mrcst[ab]: Couldn't (create ib_mad PD|open port)" || true)
	[ -z "$log" ] || fail "the MAD layer could not open a port: $log"
	assert_match "$(rdma resource show qp link mrcsta/1)" "lqpn 1 .*type GSI" "QP 1 of mrcsta"
}

rping_run() { # SERVER_ADDR COUNT SIZE
	local addr=$1 count=$2 size=$3 out lines
	cm_server_a timeout 60 rping -s -a "$addr" -p $CM_PORT -C "$count" -S "$size" -V
	out=$(nb timeout 60 rping -c -a "$addr" -p $CM_PORT -C "$count" -S "$size" -v -V 2>&1) ||
		{ echo "$out" | tail -5; fail "rping client failed ($addr)"; }
	wait $SERVER_PID || fail "rping server failed ($addr)"
	lines=$(echo "$out" | grep -c "^ping data: rdma-ping-")
	[ "$lines" -eq "$count" ] || fail "rping printed $lines of $count pings ($addr)"
}

rping_ipv4() { cm_hosts; rping_run $A4 100 64; }
rping_ipv6() { cm_hosts; rping_run $A6 100 1000; }

ucmatose_ipv4() {
	cm_hosts
	cm_server_a timeout 60 ucmatose -b $A4 -p $CM_PORT -c 4 -C 20
	nb timeout 60 ucmatose -s $A4 -b $B4 -p $CM_PORT -c 4 -C 20 || fail "ucmatose client failed"
	wait $SERVER_PID || fail "ucmatose server failed"
}

rdma_server_client() {
	cm_hosts
	cm_server_a timeout 60 rdma_server -s $A4 -p $CM_PORT
	nb timeout 60 rdma_client -s $A4 -p $CM_PORT || fail "rdma_client failed"
	wait $SERVER_PID || fail "rdma_server failed"
}

ktap_run \
	gsi_port_open \
	rping_ipv4 \
	rping_ipv6 \
	ucmatose_ipv4 \
	rdma_server_client
