#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unreliable datagrams between two hosts over mrc, driven by rdma-core's ibv_ud_pingpong (UD QPs,
# address handles, a GRH before every payload), over IPv6 and IPv4-mapped GIDs, with the tool's
# own data check; the receive side's guard: a datagram with the wrong Q_Key, or a connected (RC)
# packet aimed at a UD QP, is dropped and counted, and the QP goes on working; the edges
# mrc_ud_check (userspace/tools) tries on both ends; and hostile values in a UD QP's send ring.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 [ mrcstb ] (netns mstb)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_wire.sh"

UD_PORT=18530
UD_QKEY=0x11111111	# the one ibv_ud_pingpong uses

# ibv_ud_pingpong's server on A, then its client on B; the veth counter proves the bytes left B.
ud_server() { # FAMILY SIZE [EXTRA ARGS...]
	local family=$1 size=$2 gid_a
	shift 2
	gid_a=$(gid_index_of mrcsta "$(gid_of_v"$family" "$(eval echo \$A"$family")")")
	server_a $UD_PORT timeout 60 ibv_ud_pingpong -p $UD_PORT -d mrcsta -g "$gid_a" \
		-s "$size" -n 50 -c "$@"
}

ud_client() { # FAMILY SIZE [EXTRA ARGS...]
	local family=$1 size=$2 gid_b before
	shift 2
	gid_b=$(gid_index_of mrcstb "$(gid_of_v"$family" "$(eval echo \$B"$family")")")
	before=$(veth_tx_bytes mstb mstb0)
	# the tool's TCP exchange goes to A's IPv4 address (its server listens on IPv4 only)
	nb timeout 60 ibv_ud_pingpong -p $UD_PORT -d mrcstb -g "$gid_b" -s "$size" -n 50 -c "$@" \
		$A4 || fail "client failed (IPv$family, size $size)"
	wait $SERVER_PID || fail "server failed (IPv$family, size $size)"
	[ $(( $(veth_tx_bytes mstb mstb0) - before )) -ge $((size * 50)) ] ||
		fail "fewer than $((size * 50)) bytes left host B"
}

ud_pingpong() { # FAMILY SIZE [EXTRA ARGS...]
	ud_server "$@"
	ud_client "$@"
}

# The QPN of the (one) UD QP on DEV in netns NS.
ud_qpn_of() { # NS DEV
	ip netns exec "$1" rdma -j resource show qp link "$2/1" |
		jq -e '[.[] | select(.type == "UD") | .lqpn] | first'
}

ud_pingpong_ipv6() {
	two_hosts
	ud_pingpong 6 1024
	[ "$(counter mrcsta tx_packets)" -ge 50 ] || fail "A's datagrams were not counted"
	[ "$(counter mrcstb rx_packets)" -ge 50 ] || fail "B's datagrams were not counted"
	[ "$(counter mrcsta drop_no_recv_wqe)" -eq 0 ] || fail "A dropped datagrams"
}

ud_pingpong_ipv4_events() { two_hosts; ud_pingpong 4 512 -e; }

ud_small_messages() { two_hosts; ud_pingpong 6 1; }

ud_wrong_qkey_dropped() {
	two_hosts
	local qpn qkey_before rc_before
	ud_server 6 256
	wait_until 10 ud_qpn_of msta mrcsta
	qpn=$(ud_qpn_of msta mrcsta)
	qkey_before=$(counter mrcsta drop_bad_qkey)
	rc_before=$(counter mrcsta drop_unknown_qp)
	inject $A6 "$(ud_packet "$qpn" 0x22222222 77 64)"
	inject $A4 "$(ud_packet "$qpn" 0x11111110 77 0)"
	wait_until 5 test "$(counter mrcsta drop_bad_qkey)" -ge $((qkey_before + 2)) ||
		fail "datagrams with a wrong Q_Key were not counted"
	# a connected QP's SEND (hdr_len 7 words) for the UD QP: not a datagram, not for it
	inject $A6 "$(send_packet "$qpn" 0 0)"
	wait_until 5 test "$(counter mrcsta drop_unknown_qp)" -gt "$rc_before" ||
		fail "an RC packet at a UD QP was not dropped as for no such QP"
	# none took a receive WQE: the exchange runs its 50 rounds with every byte checked
	ud_client 6 256
	[ "$(counter mrcsta drop_bad_qkey)" -eq $((qkey_before + 2)) ] ||
		fail "the pingpong's own datagrams were refused"
}

# mrc_ud_check (userspace/tools): controlled Q_Keys refused, datagrams over the MTU and AHs of
# another PD failing the sender's QP (which comes back), a receive too short failing alone, a
# wrong Q_Key dropped, the GRH, source QP and immediate of what lands, every byte checked.
ud_edges() { # FAMILY
	local family=$1 gid_a gid_b out rc=0 before
	gid_a=$(gid_index_of mrcsta "$(gid_of_v"$family" "$(eval echo \$A"$family")")")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v"$family" "$(eval echo \$B"$family")")")
	before=$(counter mrcsta drop_bad_qkey)
	server_a 18531 timeout 60 mrc_ud_check -d mrcsta -g "$gid_a" -p 18531
	out=$(nb timeout 60 mrc_ud_check -d mrcstb -g "$gid_b" -p 18531 $A4 2>&1) || rc=$?
	echo "$out"
	wait $SERVER_PID || fail "mrc_ud_check: the server failed"
	[ $rc -eq 0 ] || fail "mrc_ud_check: the client failed (exit $rc)"
	[ "$(counter mrcsta drop_bad_qkey)" -eq $((before + 1)) ] ||
		fail "the wrong Q_Key's datagram was not counted once"
}

# perftest's UD mode (-c UD) between the hosts, through its default post API (ibv_wr_* with
# ibv_wr_set_ud_addr): it completes and prints its results. The bandwidth test posts more
# datagrams at once than one doorbell pass sends, so the rest go out from the QP's work item.
ud_perftest() { # TOOL ARGS...
	local tool=$1 gid_a gid_b out
	shift
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $B6)")
	server_a 18532 timeout 120 "$tool" -d mrcsta -x "$gid_a" -F -c UD -p 18532 "$@"
	out=$(nb timeout 120 "$tool" -d mrcstb -x "$gid_b" -F -c UD -p 18532 "$@" $A4 2>&1) ||
		{ echo "$out"; fail "$tool -c UD $* failed on the client"; }
	wait $SERVER_PID || fail "$tool -c UD $* failed on the server"
	echo "$out" | grep -E '^ +[0-9]+ +[0-9]+ '
	echo "$out" | grep -qE '^ +[0-9]+ +[0-9]+ +[0-9.]+ ' || fail "$tool printed no results"
}

ud_send_bw() { two_hosts; ud_perftest ib_send_bw -s 1024 -n 1000; }
ud_send_lat() { two_hosts; ud_perftest ib_send_lat -s 256 -n 200; }

# Hostile values written straight into a UD QP's send ring (mrc_ring_scribble ud-sq, one host):
# each fails its WQE and the QP, never the kernel; the QP comes back and sends.
ud_sq_scribbled() {
	two_hosts
	local gid out rc=0 before
	gid=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
	before=$(counter mrcsta bad_ring_index)
	out=$(na timeout 60 mrc_ring_scribble -d mrcsta -g "$gid" ud-sq 2>&1) || rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail "mrc_ring_scribble ud-sq (exit $rc)"
	assert_match "$out" "^ud-sq: PASS$" "mrc_ring_scribble ud-sq"
	[ "$(counter mrcsta bad_ring_index)" -eq $((before + 1)) ] ||
		fail "the producer index a ring ahead was not counted once"
}

ud_edges_ipv6() { two_hosts; ud_edges 6; }
ud_edges_ipv4() { two_hosts; ud_edges 4; }

# Datagrams between two QPs of one host, to its own GID (UCX connects every rank to itself so,
# over UD: a rank that lost them died after 30 s): they come back over the loopback device, to
# the device that owns the address. IPv6 and IPv4-mapped GIDs; rx_packets counts them.
ud_loopback() {
	two_hosts
	pingpong_to_itself ibv_ud_pingpong $UD_PORT 1024 6 rx_packets 100
	pingpong_to_itself ibv_ud_pingpong $UD_PORT 1024 4 rx_packets 100
}

ktap_run \
	ud_pingpong_ipv6 \
	ud_loopback \
	ud_pingpong_ipv4_events \
	ud_small_messages \
	ud_send_bw \
	ud_send_lat \
	ud_wrong_qkey_dropped \
	ud_edges_ipv6 \
	ud_edges_ipv4 \
	ud_sq_scribbled
