#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Multipath over a leaf-spine fabric whose leaves hash the UDP ports (ECMP): one QP's packets,
# sprayed over the device's EVs (UDP source ports), cross every spine, each EV carrying its
# share; a spine whose link
# dies or that silently drops everything is bypassed and, repaired, used again.
#
#   [ host A ] -- [ leaf A ] == 4 spines == [ leaf B ] -- [ host B ]    (lib_clos.sh)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"

SPINES=4

# ib_write_bw from B to A over the fabric, one QP.
write_bw_over_fabric() { clos_perftest ib_write_bw 18515 "$@"; } # ARGS...

one_qp_uses_every_spine() {
	clos_fabric $SPINES
	local i bw before=() moved=() total=0 fair
	for i in $(seq 1 $SPINES); do before[i]=$(clos_spine_bytes_from_b $i); done
	(write_bw_over_fabric -s 65536 -n 3000) &
	bw=$!
	# while it runs, its path set (IPv6: the tools' GIDs) shows what each EV carried
	wait_until 60 evs_b_exist
	sleep 3
	nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 >/tmp/multipath-evs.json
	wait $bw || fail "ib_write_bw failed"
	jq -r '[.[].packets] | "\(length) \(min) \(max) \(add / length)"' /tmp/multipath-evs.json | {
		read -r n min max mean
		echo "per-EV packets: $n EVs, min $min max $max mean $mean"
		[ "$n" -eq 256 ] || fail "$n EVs"
		awk -v a="$min" -v b="$max" -v m="$mean" 'BEGIN { exit !(a >= 0.75 * m && b <= 1.25 * m) }' ||
			fail "EVs not within 25% of their even share"
	}
	for i in $(seq 1 $SPINES); do
		moved[i]=$(( $(clos_spine_bytes_from_b $i) - before[i] ))
		total=$((total + moved[i]))
	done
	fair=$((total / SPINES))
	echo "bytes per spine: ${moved[*]:1} (fair share $fair)"
	[ $total -ge $((3000 * 65536)) ] || fail "only $total bytes crossed the spines"
	# The leaf's hash of 256 ports over 4 links is a random draw (its seed is per boot):
	# each spine carries from half to twice its fair share; one carrying none would
	# mean the QP did not spray.
	for i in $(seq 1 $SPINES); do
		[ "${moved[i]}" -ge $((fair / 2)) ] || fail "spine $i carried ${moved[i]} bytes"
		[ "${moved[i]}" -le $((fair * 2)) ] || fail "spine $i carried ${moved[i]} bytes"
	done
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed"
}

# the data packets B's ASSUMED_BAD EVs towards A carried so far
evs_b_exist() { [ "$(nb mrcctl -j ev show dev mrcstb | jq length)" -gt 0 ]; }
bad_evs_packets() { evs_b state assumed-bad | jq '[.[].packets] | add // 0'; }

# A failure of spine 2 under a running mrc_stress: BREAK and REPAIR are commands. Host B's
# EVs through the broken spine are dead paths: host B marks them ASSUMED_BAD and moves their
# traffic to the other spines, with every byte verified and no QP error; once repaired,
# probes return the EVs to GOOD and traffic crosses that spine again. A healthy fabric
# marks nothing first.
spine_failure_under_stress() { # WHAT "BREAK" "REPAIR"
	local what=$1 break=$2 repair=$3
	local pid monpid marked t0 t1 t_mark t_back bytes0 bytes1 ref0 ref1 pkts0 pkts1
	local out=/tmp/multipath-stress.out mon=/tmp/multipath-monitor.out
	clos_fabric $SPINES
	stress --seconds 6 --qps 2 --seed 11
	stress_passed
	assert_eq "$(counter mrcstb ev_marked_bad)$(counter mrcsta ev_marked_bad)" 00 \
		"EVs marked bad on a healthy fabric (B, A)"

	(stress --seconds 30 --qps 2 --seed 12) >$out 2>&1 &
	pid=$!
	ip netns exec mstb mrcctl -j monitor >$mon 2>&1 &	# not via nb: $! must be mrcctl
	monpid=$!
	wait_until 10 monitor_joined
	sleep 5
	t0=$(now_ms)
	$break
	t1=$(now_ms)	# the commands take a while under emulation: t0..t1 is when it broke
	wait_until 10 counter_ge mrcstb ev_marked_bad 1
	sleep 4
	marked=$(counter mrcstb ev_marked_bad)
	# the events reached mrcctl monitor; the first one's kernel time says how fast
	t_mark=$(jq -s "[.[] | select(.dev == \"mrcstb\" and .to == \"assumed-bad\")] |
		(.[0].time_ns / 1000000 | floor)" $mon)
	assert_eq "$(jq -s '[.[] | select(.dev == "mrcstb" and .to == "assumed-bad" and
		.reason == "loss")] | length' $mon)" "$marked" "ASSUMED_BAD events seen by mrcctl monitor"
	echo "$what: B marked $marked EVs, A $(counter mrcsta ev_marked_bad)"
	# a quarter of B's 256 EVs hash onto spine 2 (the leaf's hash is a random draw)
	[ "$marked" -ge 24 ] && [ "$marked" -le 128 ] || fail "$marked EVs marked bad"
	bytes0=$(clos_spine_bytes_from_b 2)
	ref0=$(clos_spine_bytes_from_b 1)
	pkts0=$(bad_evs_packets)
	sleep 3
	pkts1=$(bad_evs_packets)
	bytes1=$(clos_spine_bytes_from_b 2)
	ref1=$(clos_spine_bytes_from_b 1)
	echo "$what: first EV marked $((t_mark - t1))..$((t_mark - t0)) ms after the failure" \
		"(kernel time; the range is how long the commands took); in 3 s" \
		"spine 2 carried $((bytes1 - bytes0)) bytes from B, spine 1 $((ref1 - ref0));" \
		"data packets on the ASSUMED_BAD EVs: $pkts0 -> $pkts1"
	assert_eq "$pkts1" "$pkts0" "data packets on ASSUMED_BAD EVs"
	[ $(((bytes1 - bytes0) * 4)) -lt $((ref1 - ref0)) ] || fail "traffic still crosses spine 2"

	$repair
	t0=$(now_ms)	# the fabric is whole again from here
	wait_until 10 counter_ge mrcstb ev_recovered "$marked"
	# the last EV's GOOD event, by its kernel time
	t_back=$(jq -s "[.[] | select(.dev == \"mrcstb\" and .to == \"good\")] |
		(.[-1].time_ns / 1000000 | floor) - $t0" $mon)
	bytes0=$(clos_spine_bytes_from_b 2)
	sleep 3
	bytes1=$(clos_spine_bytes_from_b 2)
	echo "$what repaired: every EV GOOD again ${t_back} ms after the repair;" \
		"spine 2 carried $((bytes1 - bytes0)) bytes from B in 3 s"
	[ $((bytes1 - bytes0)) -ge 1000000 ] || fail "spine 2 is not used again"

	kill -TERM $monpid
	wait $monpid || fail "mrcctl monitor exited with $?"
	assert_eq "$(jq -s '[.[] | select(.dev == "mrcstb" and .to == "good" and
		.reason == "probe")] | length' $mon)" "$marked" "GOOD-again events seen by mrcctl monitor"
	wait $pid || { cat $out; fail "mrc_stress failed across the failure"; }
	cat $out
	STRESS_OUT=$(cat $out)
	stress_passed
	no_qp_errors
	[ "$(counter mrcstb ev_marked_bad)" -eq "$marked" ] || fail "more EVs marked after the repair"
}

# Spine 2 loses its link to leaf A (ip link set down at both ends).
spine_link_down_and_back() {
	spine_failure_under_stress "link down" "clos_spine_a_link 2 down" "clos_spine_a_link 2 up"
}

# Spine 2 silently drops everything towards leaf A: no link goes down, nothing tells anyone.
blackhole_on() { ns_ex msts2 tc qdisc add dev msts2-a root netem loss 100%; }
blackhole_off() { ns_ex msts2 tc qdisc del dev msts2-a root; }
spine_blackhole_and_back() {
	spine_failure_under_stress "blackhole" blackhole_on blackhole_off
}

# Every spine loses its link to leaf A: no path is left. The QPs follow RC's rules -- retry
# with back-off, then fail with an error completion -- within their timeout; nothing hangs,
# and the devices and the module go away cleanly afterwards (cleanup, rmmod).
all_paths_dead() {
	local gid_a gid_b client t0 rc=0 elapsed out=/tmp/multipath-dead.out i
	clos_fabric $SPINES
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	server_a $STRESS_PORT timeout 100 mrc_stress -d mrcsta -g "$gid_a" -p $STRESS_PORT
	nb timeout 100 mrc_stress -d mrcstb -g "$gid_b" -p $STRESS_PORT --seconds 60 --qps 2 \
		--retry-cnt 3 --timeout 20 $A4 >$out 2>&1 &
	client=$!
	sleep 5
	t0=$(now_ms)
	for i in $(seq 1 $SPINES); do clos_spine_a_link $i down; done
	wait $client || rc=$?
	elapsed=$(( $(now_ms) - t0 ))
	cat $out
	echo "all paths dead: the client ended (exit $rc) after ${elapsed} ms;" \
		"B: qp_errors $(counter mrcstb qp_errors) timeouts $(counter mrcstb timeouts)" \
		"ev_marked_bad $(counter mrcstb ev_marked_bad)"
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "the client should fail with an error, not exit $rc"
	[ $elapsed -lt 30000 ] || fail "it took ${elapsed} ms to fail"
	# the first QP to run out of retries may be either host's; the other's peer then goes
	[ $(( $(counter mrcsta qp_errors) + $(counter mrcstb qp_errors) )) -ge 1 ] || fail "no QP error"
	kill $SERVER_PID 2>/dev/null || true
	wait $SERVER_PID || true
}

ktap_run \
	one_qp_uses_every_spine \
	spine_link_down_and_back \
	spine_blackhole_and_back \
	all_paths_dead
