#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile input, one test per finding of the security review (issue 15): values a process
# writes into the rings it shares with mrc.ko, and packets an off-path host forges. Each is
# refused, counted or survived, and never costs the kernel a CPU, memory or a healthy QP.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 [ mrcstb ] (netns mstb)
#
# The ring cases run mrc_ring_scribble on host A alone (its QP talks to a QP nobody created) and
# mrc_recv_scribble (two QPs of A talking over its own GID);
# the packets come from host B's namespace, so they carry the address of A's QPs' peer.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_wire.sh"

scribble() { # CASE
	local gid out rc=0
	gid=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	out=$(na timeout 60 mrc_ring_scribble -d mrcsta -g "$gid" "$1" 2>&1) || rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail "mrc_ring_scribble $1 (exit $rc)"
	assert_match "$out" "^$1: PASS$" "mrc_ring_scribble $1"
}

recv_scribble() { # [-s] CASE
	local gid out rc=0 name
	gid=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	name=$([ "$1" = -s ] && echo "srq-$2" || echo "$1")
	out=$(na timeout 90 mrc_recv_scribble -d mrcsta -g "$gid" "$@" 2>&1) || rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail "mrc_recv_scribble $* (exit $rc)"
	assert_match "$out" "^$name: PASS$" "mrc_recv_scribble $*"
}

# F2: a producer index moved back behind fetched WQEs fails the QP; the CPU never spins.
sq_producer_rewound() {
	two_hosts
	scribble sq-rewind
	[ "$(counter mrcsta bad_ring_index)" -ge 1 ] || fail "bad_ring_index not counted"
}

# F3: a READ with more SGEs than its slot holds: LOC_LEN_ERR, byte_len 0, no heap read.
read_wqe_sge_overflow() {
	two_hosts
	scribble read-sge
}

# F9: 16384 READ WQEs of 128 MiB each posted at once: the kernel's memory does not grow with
# what they ask for (no map per WQE; 256 MiB of them before).
read_flood_memory_bounded() {
	two_hosts
	scribble read-flood
}

# F13: a CQ that overflowed reports it once, not once per lost completion.
cq_overflow_reported_once() {
	two_hosts
	scribble cq-overflow
}

# F14: the CQ producer index in the shared page is the consumer's to read, not ours to trust.
cq_producer_scribbled() {
	two_hosts
	scribble cq-prod
}

# F10: a QP cannot be connected to QPN 0 (every packet it built would WARN).
dest_qpn_zero_refused() {
	two_hosts
	scribble dest-qpn-0
}

# F1: lkey lookups on the send path race the MR's deregistration: every WQE completes and
# the kernel stays quiet. On the test build each lookup stalls after it found the MR, so
# deregistrations land inside lookups and the debug kernel's KASAN sees a freed MR read.
mr_dereg_races_lookups() {
	two_hosts
	race_windows_open 1 2000
	scribble mr-churn
}

# A verified mrc_stress transfer from B (client) to A, in the background, for SECONDS; sets
# CLIENT (its pid) once a QP of each host is in RTS.
live_transfer() { # SECONDS [FAMILY: 4 (default) or 6, the GIDs the QPs use]
	local gid_a gid_b
	if [ "${2:-4}" = 6 ]; then
		gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
		gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $B6)")
	else
		gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
		gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	fi
	server_a 18540 timeout $(($1 + LIVE_SLACK)) mrc_stress -d mrcsta -g "$gid_a" -p 18540
	nb timeout $(($1 + LIVE_SLACK)) mrc_stress -d mrcstb -g "$gid_b" -p 18540 --seconds "$1" --seed 15 \
		--max-size 65536 --large-max 0 $A4 >/tmp/hostile_client.out 2>&1 &
	CLIENT=$!
	wait_until 20 sh -c "rdma resource show qp link mrcsta/1 | grep -q 'type RC state RTS'"
	wait_until 20 sh -c "rdma resource show qp link mrcstb/1 | grep -q 'type RC state RTS'"
}

# The transfer finished with every byte verified and no QP failed on either host.
live_transfer_passed() {
	local rc=0 out
	wait $CLIENT || rc=$?
	wait $SERVER_PID || rc=$((rc + 100))
	out=$(cat /tmp/hostile_client.out)
	rm -f /tmp/hostile_client.out
	[ $rc -eq 0 ] || { echo "$out"; counters_of mrcsta; counters_of mrcstb; }
	echo "$out" | tail -1
	[ $rc -eq 0 ] || fail "mrc_stress failed (exit $rc)"
	assert_match "$out" 'client PASS: .* errors 0 ' "the live QPs' transfer"
	no_qp_errors
}

qpns_in_rts() { # LINK -> the local QPNs of its RC QPs in RTS
	rdma resource show qp link "$1" | grep 'type RC state RTS' |
		sed -n 's/.* lqpn \([0-9]*\) .*/\1/p'
}

# F4 (and F11): NAKs with an all-zero ACK part and random PSNs, fatal codes and RNR, at the
# requester's live QPs: dropped and counted, the transfer completes verified.
forged_nak_dropped() {
	two_hosts
	live_transfer 8
	local qpn code before
	before=$(counter mrcstb drop_bad_nak) || before=0
	for qpn in $(qpns_in_rts mrcstb/1); do
		for code in 1 3 4 5; do
			inject_from_a $B4 "$(nak_packet "$qpn" $((RANDOM << 16 | RANDOM)) $code 0)"
		done
	done
	live_transfer_passed
	counter_ge mrcstb drop_bad_nak $((before + 4)) || fail "forged NAKs not counted"
}

# F6 and F12: READ_REQs asking for more than MRC_READ_REQ_MAX_PKTS responses, and forged
# duplicates of requests that were no READ, are dropped and counted, not executed.
read_req_amplification_refused() {
	two_hosts
	live_transfer 8
	local res qpn psn before
	res=$(rdma resource show qp link mrcsta/1 | grep 'type RC state RTS' | head -1)
	qpn=$(echo "$res" | sed -n 's/.* lqpn \([0-9]*\) .*/\1/p')
	psn=$(echo "$res" | sed -n 's/.* rq-psn \([0-9]*\) .*/\1/p')
	[ -n "$qpn" ] && [ -n "$psn" ] || fail "no QPN / rq-psn in: $res"
	before=$(counter mrcsta drop_bad_read) || before=0
	# 4 MiB (1024 responses) in the window, and 256 KiB as a duplicate of the first request
	inject $A4 "$(read_req_packet "$qpn" "$psn" 4096 256 $((4 << 20)))"
	inject $A4 "$(read_req_packet "$qpn" "$psn" 4096 256 $((256 << 10)))"
	sleep 1
	counters_of mrcsta
	live_transfer_passed
	counter_ge mrcsta drop_bad_read $((before + 2)) || fail "the forged READ_REQs not counted"
}

# F6: against a real 4 MiB READ target, a READ_REQ for one page is served; its duplicate asking
# for 256 KiB is served as the original was (one page again, or not at all), and a new request
# for 4 MiB is refused: A sends a few packets, not the thousands the requests asked for.
read_responses_bounded() {
	two_hosts
	local out=/tmp/hostile-read.out pid qpn va rkey tx0 sent before
	before=$(counter mrcsta drop_bad_read) || before=0
	na mrc_ring_scribble -d mrcsta -g "$(gid_index_of mrcsta "$(gid_of_v4 $A4)")" \
		-p "$(gid_of_v4 $B4)" read-target >$out 2>&1 &
	pid=$!
	wait_until 10 grep -q '^rkey ' $out
	qpn=$(sed -n 's/^qpn //p' $out)
	va=$(sed -n 's/^va //p' $out)
	rkey=$(sed -n 's/^rkey //p' $out)
	tx0=$(na cat /sys/class/net/msta0/statistics/tx_packets)
	inject $A4 "$(read_req_packet "$qpn" 0 "$va" "$rkey" 4096)"
	sleep 0.5
	inject $A4 "$(read_req_packet "$qpn" 0 "$va" "$rkey" $((256 << 10)))"
	inject $A4 "$(read_req_packet "$qpn" 64 "$va" "$rkey" $((4 << 20)))"
	sleep 2
	sent=$(($(na cat /sys/class/net/msta0/statistics/tx_packets) - tx0))
	counters_of mrcsta
	echo "A sent $sent packets for requests of 4 KiB, 256 KiB (duplicate) and 4 MiB"
	wait $pid || { cat $out; fail "read-target failed"; }
	[ "$sent" -ge 1 ] || fail "the genuine READ_REQ was not served"
	[ "$sent" -le 16 ] || fail "A sent $sent packets: the responder amplified forged requests"
	counter_ge mrcsta drop_bad_read $((before + 2)) || fail "the forged READ_REQs not counted"
}

# F12: a SEND that names receive WQE 2 while WQE 0 is next does not complete WQE 2 first: the
# responder refuses it (NAK invalid request, QP to ERR) and WQE 0 flushes first.
rsn_out_of_order_refused() {
	two_hosts
	local out=/tmp/hostile-rsn.out pid qpn
	na mrc_ring_scribble -d mrcsta -g "$(gid_index_of mrcsta "$(gid_of_v4 $A4)")" \
		-p "$(gid_of_v4 $B4)" rsn-ahead >$out 2>&1 &
	pid=$!
	wait_until 10 grep -q '^qpn ' $out
	qpn=$(sed -n 's/^qpn //p' $out)
	inject $A4 "$(send_packet "$qpn" 0 2)"
	wait $pid || { cat $out; fail "rsn-ahead failed"; }
	cat $out
}

# F8: a PROBE from a host no QP of ours talks to gets no reply at all.
probe_from_stranger_refused() {
	two_hosts
	local i
	for i in $(seq 1 20); do
		inject $A4 "$(probe_packet "$i" 0)"
	done
	sleep 1
	counters_of mrcsta
	assert_eq "$(counter mrcsta probes_answered)" 0 "probes answered"
	assert_eq "$(counter mrcstb rx_packets)" 0 "packets that reached B"
	wait_until 5 counter_ge mrcsta probes_refused 20
}

# F8: from a peer, at most probe_replies_per_sec replies a second, and one each unless asked.
probe_replies_bounded() {
	two_hosts
	live_transfer 20
	mrc_param_set probe_replies_per_sec 10
	sleep 1.1	# the budget's second in progress ends: a fresh one of 10
	local answered refused t0 t1 secs
	answered=$(counter mrcsta probes_answered)
	refused=$(counter mrcsta probes_refused) || refused=0
	t0=$(now_ms)
	nb bash -c "for i in \$(seq 1 300); do printf '$(probe_packet 7 0)' >/dev/udp/$A4/$PORT; done"
	t1=$(now_ms)
	secs=$(((t1 - t0) / 1000 + 2))
	sleep 1
	answered=$(($(counter mrcsta probes_answered) - answered))
	echo "300 probes in $((t1 - t0)) ms: $answered answered"
	[ "$answered" -le $((10 * secs)) ] || fail "$answered answered, budget $((10 * secs))"
	[ "$answered" -ge 1 ] || fail "a peer's probe was never answered"
	wait_until 5 counter_ge mrcsta probes_refused $((refused + 300 - 10 * secs))
	kill $CLIENT $SERVER_PID 2>/dev/null || true
}

# UDP packets from source port 40000 that reached B (a tc filter's count on its veth).
from_port_40000() {
	nb tc -s filter show dev mstb0 ingress | awk '/Sent/ { n += $4 } END { print n + 0 }'
}

# A probe asks for the UDP source port of its first reply (reply_ev, from the wire): a port
# is honoured, a value that is none (beyond 65535) leaves the choice to the responder, and
# neither disturbs the device.
probe_reply_port_asked() {
	two_hosts
	live_transfer 5
	local answered
	nb tc qdisc add dev mstb0 clsact
	nb tc filter add dev mstb0 ingress protocol ip u32 match ip protocol 17 0xff \
		match ip sport 40000 0xffff action ok
	answered=$(counter mrcsta probes_answered) || answered=0
	inject $A4 "$(probe_packet 11 0 40000)"
	wait_until 5 counter_ge mrcsta probes_answered $((answered + 1))
	wait_until 5 test "$(from_port_40000)" -ge 1
	inject $A4 "$(probe_packet 12 0 4294967295)"
	inject $A4 "$(probe_packet 13 16 65536)"
	wait_until 5 counter_ge mrcsta probes_answered $((answered + 3))
	sleep 0.5
	assert_eq "$(from_port_40000)" 1 "replies from port 40000"
	live_transfer_passed
}

# F5: a device comes and goes in a namespace whose UDP socket its sibling keeps open, while
# probes for it pour in on its own link: a receive that found the device finishes before the
# device's counters, netdev and planes go. The test build stalls each receive after it found
# its device, so the removal lands inside one on almost every round.
device_removal_under_probe_flood() {
	two_hosts
	local i
	ip link add mstx0 netns msta type veth peer name mstx1 netns mstb
	na ip addr add 10.99.0.1/24 dev mstx0
	nb ip addr add 10.99.0.2/24 dev mstx1
	na ip link set mstx0 up
	nb ip link set mstx1 up
	race_windows_open 2 2000
	local flood
	nb bash -c "end=\$((SECONDS + 60)); while [ \$SECONDS -lt \$end ]; do
		printf '$(probe_packet 1 0)' >/dev/udp/10.99.0.1/$PORT; done" &
	flood=$!
	for i in $(seq 1 10); do
		na rdma link add mrcstx type mrc netdev mstx0
		wait_until 10 counter_ge mrcstx rx_packets 1 ||
			fail "round $i: the flood did not reach mrcstx"
		na rdma link del mrcstx
	done
	kill $flood 2>/dev/null || true
	rdev_absent mrcstx || fail "mrcstx is left"
	assert_match "$(rdma link show mrcsta/1)" "state ACTIVE" "the device that stayed"
}

# Issue 18: mrc_pkt_fuzz learns what each host sends in a verified transfer and, once that is
# a few seconds old, sends PKT_FUZZ_COUNT mutated copies of it back at the live QPs from each
# side, from the peer's address: opcode, header length, flags, QPN, PSN, every sub-header word
# (MSN, offsets, lengths, va, rkey, SACK bitmaps, NAK codes, probe fields), cuts, extensions,
# splices, bit flips. The transfer keeps every byte and both QPs, the kernel stays quiet (the
# VM panics on a warning), and what the receivers refused shows in their drop counters, the
# copies at QPs that do not exist among them; once the QPs are destroyed, the packets they
# were sent, replayed as they were, are dropped as for no QP. On the debug kernel (make
# check-debug) each side sends ten times as many: a million copies in all. That kernel sends
# some 650 a second from each side (500 000 took 777 s in a run), so the copies are paced at 600
# and the transfer lasts as long; its tools get minutes more to start and to end.
if [ -n "${MRC_DEBUG_KERNEL:-}" ]; then
	PKT_FUZZ_COUNT=${PKT_FUZZ_COUNT:-500000} PKT_FUZZ_PPS=600 LIVE_SLACK=600
	SRH_FUZZ_COUNT=${SRH_FUZZ_COUNT:-100000}
else
	PKT_FUZZ_COUNT=${PKT_FUZZ_COUNT:-50000} PKT_FUZZ_PPS=20000 LIVE_SLACK=115
	SRH_FUZZ_COUNT=${SRH_FUZZ_COUNT:-20000}
fi
drops_of() { # DEV -> the sum of its drop_* counters
	cat /sys/class/infiniband/"$1"/ports/1/hw_counters/drop_* | awk '{ n += $1 } END { print n }'
}

fuzz_packets_at_live_qps() {
	two_hosts
	local seed=$RANDOM fa fb drops_a drops_b dups_a dups_b unknown_a unknown_b
	live_transfer $((PKT_FUZZ_COUNT / PKT_FUZZ_PPS + 30))	# ended by SIGUSR1 below
	drops_a=$(drops_of mrcsta) drops_b=$(drops_of mrcstb)
	dups_a=$(counter mrcsta duplicates) dups_b=$(counter mrcstb duplicates)
	unknown_a=$(counter mrcsta drop_unknown_qp) unknown_b=$(counter mrcstb drop_unknown_qp)
	na mrc_pkt_fuzz -i msta0 --seed $seed --count "$PKT_FUZZ_COUNT" --pps $PKT_FUZZ_PPS \
		--save /tmp/pkt_fuzz_a.tpl >/tmp/pkt_fuzz_a.out 2>&1 &
	fa=$!
	nb mrc_pkt_fuzz -i mstb0 --seed $((seed + 1)) --count "$PKT_FUZZ_COUNT" --pps $PKT_FUZZ_PPS \
		--save /tmp/pkt_fuzz_b.tpl >/tmp/pkt_fuzz_b.out 2>&1 &
	fb=$!
	wait $fa || { cat /tmp/pkt_fuzz_a.out; fail "mrc_pkt_fuzz on A (seed $seed)"; }
	wait $fb || { cat /tmp/pkt_fuzz_b.out; fail "mrc_pkt_fuzz on B (seed $((seed + 1)))"; }
	cat /tmp/pkt_fuzz_a.out /tmp/pkt_fuzz_b.out
	# what is in flight completes and is checked; then the copies' toll
	signal_named USR1 mrc_stress || true
	live_transfer_passed
	echo "drops: A +$(($(drops_of mrcsta) - drops_a)), B +$(($(drops_of mrcstb) - drops_b));" \
		"duplicates: A +$(($(counter mrcsta duplicates) - dups_a))," \
		"B +$(($(counter mrcstb duplicates) - dups_b))"
	counters_of mrcsta
	counters_of mrcstb
	# some 7% of the copies name a QPN no QP has; the rest meet the live QPs' checks
	counter_grew mrcsta drop_unknown_qp "$unknown_a" $((PKT_FUZZ_COUNT / 40)) "copies from B"
	counter_grew mrcstb drop_unknown_qp "$unknown_b" $((PKT_FUZZ_COUNT / 40)) "copies from A"
	# each copy is refused under a reason or taken for a duplicate (VM: 101%, the rest are
	# the transfer's own duplicates); a copy that vanished uncounted would show here
	[ $(($(drops_of mrcsta) + $(counter mrcsta duplicates) - drops_a - dups_a)) -ge \
		$((PKT_FUZZ_COUNT * 3 / 4)) ] || fail "A counted fewer than 3/4 of B's copies"
	[ $(($(drops_of mrcstb) + $(counter mrcstb duplicates) - drops_b - dups_b)) -ge \
		$((PKT_FUZZ_COUNT * 3 / 4)) ] || fail "B counted fewer than 3/4 of A's copies"
	# the QPs are gone: the packets they were sent, as they were, find none
	unknown_a=$(counter mrcsta drop_unknown_qp) unknown_b=$(counter mrcstb drop_unknown_qp)
	na mrc_pkt_fuzz -i msta0 --load /tmp/pkt_fuzz_a.tpl --mutations 0 --count 5000
	nb mrc_pkt_fuzz -i mstb0 --load /tmp/pkt_fuzz_b.tpl --mutations 0 --count 5000
	counter_grew mrcsta drop_unknown_qp "$unknown_a" 4500 "B's packets at destroyed QPs"
	counter_grew mrcstb drop_unknown_qp "$unknown_b" 4500 "A's packets at destroyed QPs"
	rm -f /tmp/pkt_fuzz_[ab].tpl
}

# Receive WQEs and receive ring indices a process spoils under a SEND that is on its way, in a
# QP's own RQ and in an SRQ: num_sge ~0, past the slot, 0; an unknown lkey; SGEs past the MR,
# below it, wrapping; a producer 2^31 ahead or behind the consumer. The receiver goes to ERR,
# the sender completes in error, no byte is placed; the two bad indices are counted.
recv_ring_hostile_values() {
	local bad
	two_hosts
	bad=$(counter mrcsta bad_ring_index)
	recv_scribble hostile
	recv_scribble -s hostile
	counter_grew mrcsta bad_ring_index "$bad" 4 "the receive rings' bad producer indices"
}

# The same rings scribbled at random by a thread while SENDs arrive (the kernel copies a WQE
# once, then checks the copy): every SEND completes, nothing outside the registered page moves.
recv_ring_scribbled_under_traffic() {
	two_hosts
	recv_scribble race
	recv_scribble -s race
}

# The copies come over SRv6 (mrc_pkt_fuzz --srh), as an SRv6 fabric delivers a packet: an SRH
# that has arrived, with transit segments, in half of them mutated (its length, type, segments
# left, last entry, flags, tag; a segment that is no unicast address; TLV padding). The QPs use
# IPv6 GIDs and both hosts accept SRH packets. Whatever SRH the stack passes on meets mrc's
# parser, and no answer follows a forger's segments (reply_srh_refused); the transfer keeps its
# bytes, and the copies are counted as for plain UDP.
fuzz_srh_at_live_qps() {
	local seed=$RANDOM fa fb drops_a drops_b dups_a dups_b refused_a refused_b
	two_hosts
	for ns in msta mstb; do ip netns exec $ns sysctl -qw net.ipv6.conf.all.seg6_enabled=1; done
	na sysctl -qw net.ipv6.conf.msta0.seg6_enabled=1
	nb sysctl -qw net.ipv6.conf.mstb0.seg6_enabled=1
	live_transfer $((SRH_FUZZ_COUNT / PKT_FUZZ_PPS + 30)) 6
	drops_a=$(drops_of mrcsta) drops_b=$(drops_of mrcstb)
	dups_a=$(counter mrcsta duplicates) dups_b=$(counter mrcstb duplicates)
	refused_a=$(counter mrcsta reply_srh_refused) refused_b=$(counter mrcstb reply_srh_refused)
	na mrc_pkt_fuzz -i msta0 --srh --mutations 1 --seed $seed --count "$SRH_FUZZ_COUNT" \
		--pps $PKT_FUZZ_PPS >/tmp/srh_fuzz_a.out 2>&1 &
	fa=$!
	nb mrc_pkt_fuzz -i mstb0 --srh --mutations 1 --seed $((seed + 1)) --count "$SRH_FUZZ_COUNT" \
		--pps $PKT_FUZZ_PPS >/tmp/srh_fuzz_b.out 2>&1 &
	fb=$!
	wait $fa || { cat /tmp/srh_fuzz_a.out; fail "mrc_pkt_fuzz --srh on A (seed $seed)"; }
	wait $fb || { cat /tmp/srh_fuzz_b.out; fail "mrc_pkt_fuzz --srh on B (seed $((seed + 1)))"; }
	cat /tmp/srh_fuzz_a.out /tmp/srh_fuzz_b.out
	rm -f /tmp/srh_fuzz_[ab].out
	signal_named USR1 mrc_stress || true
	live_transfer_passed
	counters_of mrcsta
	counters_of mrcstb
	counter_grew mrcsta reply_srh_refused "$refused_a" $((SRH_FUZZ_COUNT / 50)) "B's SRv6 copies"
	counter_grew mrcstb reply_srh_refused "$refused_b" $((SRH_FUZZ_COUNT / 50)) "A's SRv6 copies"
	echo "drops: A +$(($(drops_of mrcsta) - drops_a)), B +$(($(drops_of mrcstb) - drops_b));" \
		"duplicates: A +$(($(counter mrcsta duplicates) - dups_a))," \
		"B +$(($(counter mrcstb duplicates) - dups_b))"
	# half the SRHs are mutated, and the stack drops some of those before UDP (its counters)
	[ $(($(drops_of mrcsta) + $(counter mrcsta duplicates) - drops_a - dups_a)) -ge \
		$((SRH_FUZZ_COUNT / 2)) ] || fail "A counted fewer than 1/2 of B's SRv6 copies"
	[ $(($(drops_of mrcstb) + $(counter mrcstb duplicates) - drops_b - dups_b)) -ge \
		$((SRH_FUZZ_COUNT / 2)) ] || fail "B counted fewer than 1/2 of A's SRv6 copies"
	na grep -E 'Ip6InHdrErrors|Ip6InDiscards|Ip6InNoRoutes|Udp6InErrors|Udp6InCsumErrors' \
		/proc/net/snmp6
}

# Copies of a transfer's packets at QPs that never took part in it, one resting in each state:
# RESET and INIT have no peer yet (dropped as for no QP); RTR, RTS, SQD and ERR are connected to
# B, and each copy reaches the responder or the completer, which drop it for the QP's state
# (ERR; responses in RTR) or check it as a request. After 20 000 copies every QP is in its state
# (RTR, RTS and SQD may be in ERR: a forged request that falls in their window is a request),
# nothing but flushes completed, the drops are counted, and the kernel stays quiet.
fuzz_packets_at_qps_in_every_state() {
	local gid out=/tmp/qp_states.out pid qpns unknown state
	two_hosts
	live_transfer 8
	nb mrc_pkt_fuzz -i mstb0 --count 1 --save /tmp/qp_states.tpl >/dev/null ||
		fail "no packets of B's learnt"
	live_transfer_passed
	gid=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	na timeout 60 mrc_ring_scribble -d mrcsta -g "$gid" -p "$(gid_of_v4 $B4)" qp-states \
		>$out 2>&1 &
	pid=$!
	wait_until 20 grep -q '^qpn [0-9]* ERR$' $out
	qpns=$(sed -n 's/^qpn \([0-9]*\) .*/\1/p' $out | tr '\n' , | sed 's/,$//')
	unknown=$(counter mrcsta drop_unknown_qp) state=$(counter mrcsta drop_qp_state)
	nb mrc_pkt_fuzz -i mstb0 --load /tmp/qp_states.tpl --qpns "$qpns" --count 20000 \
		--mutations 1 || fail "mrc_pkt_fuzz at QPs $qpns"
	rm -f /tmp/qp_states.tpl
	wait $pid || { cat $out; fail "mrc_ring_scribble qp-states"; }
	cat $out
	assert_match "$(cat $out)" '^qp-states: PASS$' "QPs in every state"
	# a sixth of the copies to each QP, a quarter of them refused by the parser first
	counter_grew mrcsta drop_unknown_qp "$unknown" 3000 "copies at QPs in RESET and INIT"
	counter_grew mrcsta drop_qp_state "$state" 1200 "copies at QPs in ERR, responses in RTR"
	counters_of mrcsta
}

ktap_run \
	sq_producer_rewound \
	read_wqe_sge_overflow \
	read_flood_memory_bounded \
	cq_overflow_reported_once \
	cq_producer_scribbled \
	dest_qpn_zero_refused \
	mr_dereg_races_lookups \
	recv_ring_hostile_values \
	recv_ring_scribbled_under_traffic \
	forged_nak_dropped \
	read_req_amplification_refused \
	read_responses_bounded \
	rsn_out_of_order_refused \
	probe_from_stranger_refused \
	probe_replies_bounded \
	probe_reply_port_asked \
	device_removal_under_probe_flood \
	fuzz_packets_at_live_qps \
	fuzz_srh_at_live_qps \
	fuzz_packets_at_qps_in_every_state
