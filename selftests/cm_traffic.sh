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

# perftest connected by rdma_cm (-R): the QPs are set up through CM messages, not perftest's TCP
# exchange; the data moves on them as on any mrc RC QP, so the client's COUNTER (bytes) grows
# by at least MIN.
perftest_cm() { # TOOL ADDR COUNTER MIN ARGS...
	local tool=$1 addr=$2 cnt=$3 min=$4 out before
	shift 4
	before=$(counter mrcstb "$cnt")
	cm_server_a timeout 120 "$tool" -d mrcsta -R -F "$@"
	out=$(nb timeout 120 "$tool" -d mrcstb -R -F "$@" "$addr" 2>&1) ||
		{ echo "$out" | tail -8; fail "$tool -R $* failed on the client"; }
	wait $SERVER_PID || fail "$tool -R $* failed on the server"
	echo "$out" | grep -E '^ +[0-9]+ +[0-9]+ ' | head -n 5
	echo "$out" | grep -qE '^ +[0-9]+ +[0-9]+ +[0-9.]+ ' || fail "$tool -R printed no results"
	counter_grew mrcstb "$cnt" "$before" "$min" "$tool -R"
}

write_bw_cm() { cm_hosts; perftest_cm ib_write_bw $A4 tx_bytes $((200 * 65536)) -s 65536 -n 200; }
read_lat_cm() { cm_hosts; perftest_cm ib_read_lat $A4 rx_bytes $((200 * 64)) -s 64 -n 200; }
send_bw_cm() { cm_hosts; perftest_cm ib_send_bw $A4 tx_bytes $((200 * 4096)) -s 4096 -n 200; }

# A connect request to a port nobody listens on: the passive side's CM rejects it, and the
# client hears so within its timeout rather than hanging, with no QP left behind.
cm_reject_unbound_port() {
	cm_hosts
	local out rc=0
	out=$(nb timeout 60 rping -c -a $A4 -p $((CM_PORT + 1)) -C 1 -v 2>&1) || rc=$?
	echo "$out" | tail -3
	[ $rc -ne 0 ] || fail "rping connected to a port nobody listens on"
	[ $rc -ne 124 ] || fail "rping hung (timeout) connecting to a port nobody listens on"
	assert_match "$out" "RDMA_CM_EVENT_REJECTED" \
		"the connect was rejected"
	no_resources mrcstb || fail "mrcstb kept verbs objects after the rejected connect"
	no_resources mrcsta || fail "mrcsta kept verbs objects after the rejected connect"
}

ktap_run \
	gsi_port_open \
	rping_ipv4 \
	rping_ipv6 \
	ucmatose_ipv4 \
	rdma_server_client \
	write_bw_cm \
	read_lat_cm \
	send_bw_cm \
	cm_reject_unbound_port
