#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A fabric that keeps changing under load: spine links flapping at random every 200 ms for a
# minute (20 s in the suite CI runs; `make soak` runs the minute), on the ECMP fabric and on the
# SRv6 one, and half of
# the spines ("core switches") taken out at once and put back. Transfers in both directions
# carry on through all of it: no QP error, every byte verified, and once the fabric is whole
# again every EV is GOOD and carries traffic.
#
#                           +-- spine 1 --+
#   [ host A ] -- [ leaf A ]+-- spine 2 --+[ leaf B ] -- [ host B ]       (lib_clos.sh;
#                           +--   ...   --+                               ECMP on UDP ports,
#                           +-- spine N --+                               or seg6local End)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"
source "$(dirname "$0")/lib_flap.sh"

STRESS_LOG=/tmp/churn-stress.out

# mrc_stress in the background (both directions: the client's QPs run every op both ways).
stress_start() { # SECONDS
	(stress --seconds "$1" --qps 2 --seed 21) >$STRESS_LOG 2>&1 &
	STRESS_PID=$!
}

stress_finish() {
	wait $STRESS_PID || { churn_diag $STRESS_LOG; fail "mrc_stress failed across the churn"; }
	cat $STRESS_LOG
	STRESS_OUT=$(cat $STRESS_LOG)
	stress_passed
}

# Every EV either host marked ASSUMED_BAD is GOOD again.
all_recovered() {
	local dev
	for dev in mrcsta mrcstb; do
		[ "$(counter $dev ev_recovered)" -ge "$(counter $dev ev_marked_bad)" ] || return 1
	done
}

# Bytes spines FIRST..LAST received from leaf B.
spines_bytes_from_b() { # FIRST LAST
	local i sum=0
	for i in $(seq "$1" "$2"); do sum=$((sum + $(clos_spine_bytes_from_b $i))); done
	echo $sum
}

# Both hosts' QPs every 2 s while the soak runs, the newest last (QPS_LOG): a failed QP is
# gone by the time its tool reports it.
QPS_LOG=/tmp/churn-qps.out
qps_sample_start() {
	(while :; do
		echo "$EPOCHREALTIME A: $(na mrcctl stats qp dev mrcsta | tr '\n' ';')"
		echo "$EPOCHREALTIME B: $(nb mrcctl stats qp dev mrcstb | tr '\n' ';')"
		sleep 2
	done) >$QPS_LOG 2>&1 &
	QPS_PID=$!
}

# What a failed transfer leaves to go by: its output, the devices' counters and the QPs'
# last seconds.
churn_diag() { # OUTPUT
	cat "$1"
	counters_of mrcsta
	counters_of mrcstb
	kill $QPS_PID 2>/dev/null || true
	tail -n 12 $QPS_LOG || true
}

# Host A has an established TCP connection on each local PORT (a tool's side channel).
tcp_connected_a() { # PORT...
	local port
	for port in "$@"; do
		na grep -qE ":$(printf %04X "$port") [0-9A-F]+:[0-9A-F]+ 01 " /proc/net/tcp \
			/proc/net/tcp6 || return 1
	done
}

# The soak on FABRIC (a function taking the number of spines).
flap_soak_on() { # FABRIC INTERVAL_MS
	local spines=4 secs write read
	secs=$(soak_seconds 20 60)
	"$1" $spines
	stress_start $((secs + 20))
	(clos_perftest ib_write_bw 18515 -s 65536 -D $((secs + 10))) >/tmp/churn-write.out 2>&1 &
	write=$!
	(clos_perftest ib_read_bw 18516 -s 65536 -D $((secs + 10))) >/tmp/churn-read.out 2>&1 &
	read=$!
	# the flaps start once every tool is connected: a TCP connect hashed onto a dead path
	# retries on the same path for seconds (its ports do not change), longer than the tools wait
	wait_until 60 tcp_connected_a 18515 18516 $STRESS_PORT
	qps_sample_start
	sleep 2
	flap_links $spines $secs $2
	# the VM may fall behind the interval asked by a quarter at most
	[ $((FLAP_CHANGES * $2 * 5)) -ge $((secs * 1000 * 4)) ] ||
		fail "only $FLAP_CHANGES link changes in $secs s, one every $2 ms asked"
	[ "$(counter mrcsta ev_marked_bad)" -gt 0 ] && [ "$(counter mrcstb ev_marked_bad)" -gt 0 ] ||
		fail "both hosts should have lost paths to the flaps"
	wait $write || { churn_diag /tmp/churn-write.out; fail "ib_write_bw failed across the flaps"; }
	wait $read || { churn_diag /tmp/churn-read.out; fail "ib_read_bw failed across the flaps"; }
	echo "ib_write_bw:"; cat /tmp/churn-write.out
	echo "ib_read_bw:"; cat /tmp/churn-read.out
	stress_finish
	kill $QPS_PID
	no_qp_errors
	echo "marked bad: A $(counter mrcsta ev_marked_bad) B $(counter mrcstb ev_marked_bad)"
	wait_until 20 all_recovered
}

# ECMP: the leaves hash UDP ports over the spines, and rehash whenever a link changes.
flap_soak_ecmp() { flap_soak_on clos_fabric 200; }

# SRv6: each EV names its spine, and keeps it through the flaps; the answers to a request go
# back over the spine it came over (Documentation/multipath.rst, "Answers").
# Its record: 4 of 6 runs passed before the fabric's neighbours resolved fast and ASSUMED_BAD
# EVs' probes piled up (the failures: a client QP out of retries on one op, unanswered for
# some 20 s while the others went on), 7 of 7 since. A QP out of retries logs what it waited on.
flap_soak_srv6() { flap_soak_on clos_srv6_world 200; }

# Spines 1-4 of 8 lose every link at once (both leaves see them go and stop hashing onto
# them; what was in flight through them is lost), for 5 s, and come back.
hot_swap() {
	local spines=8 half=4 i marked b0 b1 r0 r1
	clos_fabric $spines
	stress_start 120	# outlasts the swap and the recovery (60 s did not, once, under CI),
				# ended by SIGUSR1 once measured
	sleep 8
	for i in $(seq 1 $half); do
		clos_spine_link a $i down
		clos_spine_link b $i down
	done
	sleep 3
	r0=$(spines_bytes_from_b $((half + 1)) $spines)
	sleep 2
	r1=$(spines_bytes_from_b $((half + 1)) $spines)
	echo "hot swap: with spines 1-$half out, spines $((half + 1))-$spines carried" \
		"$((r1 - r0)) bytes from B in 2 s"
	[ $((r1 - r0)) -ge 1000000 ] || fail "the transfer stalled with spines 1-$half out"
	marked="A $(counter mrcsta ev_marked_bad) B $(counter mrcstb ev_marked_bad)"
	for i in $(seq 1 $half); do
		clos_spine_link a $i up
		clos_spine_link b $i up
	done
	wait_until 20 all_recovered
	b0=$(spines_bytes_from_b 1 $half)
	r0=$(spines_bytes_from_b $((half + 1)) $spines)
	sleep 3
	b1=$(spines_bytes_from_b 1 $half)
	r1=$(spines_bytes_from_b $((half + 1)) $spines)
	echo "hot swap: marked bad $marked; after the swap spines 1-$half carried" \
		"$((b1 - b0)) bytes from B in 3 s, spines $((half + 1))-$spines $((r1 - r0))"
	# still flowing, and back in the hash's rotation: at least a quarter of what the others carry
	[ $((r1 - r0)) -ge 1000000 ] || fail "the transfer did not go on after the swap"
	[ $(((b1 - b0) * 4)) -ge $((r1 - r0)) ] || fail "traffic did not return to spines 1-$half"
	# all measured: both ends post nothing new and check what is in flight
	signal_named USR1 mrc_stress || fail "no mrc_stress left to end"
	stress_finish
	no_qp_errors
}

ktap_run \
	flap_soak_ecmp \
	flap_soak_srv6 \
	hot_swap
