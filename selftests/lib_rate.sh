# SPDX-License-Identifier: GPL-2.0
# Throughput on the leaf-spine fabric of lib_clos.sh when every B -> A path is a link of
# rate R (tc tbf at leaf B): one QP's ib_write_bw, sprayed or pinned to one EV, and what a
# spine failing mid-transfer costs it. multipath_rate.sh asserts on these numbers and
# bench_multipath.sh prints them. Source after lib.sh, lib_fabric.sh and lib_clos.sh.

RATE_SPINES=${RATE_SPINES:-4}
RATE_MBIT=${RATE_MBIT:-24}		# R: 3 MB/s per path
RATE_BPS=$((RATE_MBIT * 125000))
CLOS_MTU=9000				# IB MTU 4096: headers cost 3% of R, not 10% as at 1024

# The fabric of RATE_SPINES spines, every B -> A path shaped to R.
rate_fabric() {
	clos_fabric "$RATE_SPINES"
	clos_shape_b_to_a "$RATE_SPINES" "${RATE_MBIT}mbit"
}

# The same on the SRv6 fabric, both hosts spraying over SRV6 EVs (their profile 1).
rate_srv6_fabric() {
	clos_srv6_world "$RATE_SPINES"
	clos_shape_b_to_a "$RATE_SPINES" "${RATE_MBIT}mbit"
}

# Host B's new QPs use EV profile ID, made from the rest of the arguments (mrcctl
# ev-profile add) and put online.
b_profile() { # ID ARGS...
	local id=$1
	shift
	nb mrcctl ev-profile add dev mrcstb id "$id" "$@"
	nb mrcctl ev-profile set dev mrcstb id "$id" state online
	nb mrcctl dev set dev mrcstb default-profile "$id"
}

# MB/s against N * R, as a ratio.
of_nr() { awk -v b="$1" -v r=$RATE_BPS -v n="$2" 'BEGIN { printf "%.2f", b * 1e6 / (n * r) }'; }

# Bytes host A has received (its netdev in netns msta), read through a process living in
# that namespace: /proc/PID/net/dev is the namespace's, no ip netns exec per sample.
RATE_ANCHOR=
rx_bytes_a() { awk '$1 == "msta0:" { print $2 }' /proc/$RATE_ANCHOR/net/dev; }

# Every 100 ms: "ms bytes" of host A's receive counter, until killed or the anchor is gone
# (cleanup_world kills it with the namespace's other processes).
sample_rx_a() {
	while [ -e /proc/$RATE_ANCHOR ]; do
		echo "$(now_ms) $(rx_bytes_a)"
		sleep 0.1
	done
}

evs_b_ready() { [ "$(nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 | jq length)" -gt 0 ]; }

# The failures, each one of the RATE_SPINES paths of host B dying.
rate_link_down() { clos_spine_a_link 2 down; }	# a link signal at leaf A only
rate_blackhole() { ns_ex msts2 tc qdisc add dev msts2-a root netem loss 100%; }	# none

# The requester whose QP the rate tests watch: host B's for WRITEs, host A's for READs.
RATE_OP=${RATE_OP:-write}
rate_requester() { # mrcctl ARGS... (with "dev" last)
	if [ "$RATE_OP" = read ]; then na "$@" mrcsta; else nb "$@" mrcstb; fi
}

# One QP's ib_write_bw from B to A for SECONDS (RATE_OP=read: A's ib_read_bw of B's
# memory, which moves the data the same way), host A's receive counter sampled every
# 100 ms into RATE_SAMPLES ("ms bytes" lines). With AT and BREAK: BREAK runs AT seconds
# after the QP is up, at RATE_T_BREAK (ms). perftest's own bandwidth is not used: under
# emulation its clock calibration may fail and report 0.
RATE_SAMPLES=/tmp/rate-samples.out
RATE_QP_JSON=/tmp/rate-qp-stats.json
RATE_QP_PRE_JSON=/tmp/rate-qp-stats-pre.json
rate_run() { # SECONDS [AT BREAK]
	local secs=$1 at=${2:-} break=${3:-} bw sampler stats=
	ip netns exec msta sleep 1000 >/dev/null 2>&1 &	# not via na: $! must be the sleep
	RATE_ANCHOR=$!
	sample_rx_a >$RATE_SAMPLES 2>/dev/null &
	sampler=$!
	if [ "$RATE_OP" = read ]; then
		clos_perftest_a_client ib_read_bw 18515 -s 65536 -D "$secs" >/tmp/rate-bw.out 2>&1 &
	else
		clos_perftest ib_write_bw 18515 -s 65536 -D "$secs" >/tmp/rate-bw.out 2>&1 &
	fi
	bw=$!
	wait_until 30 evs_b_ready
	if [ -n "$break" ]; then
		sleep "$at"
		# B's QP as the failure finds it; its longest wait starts over, so that what
		# it waits from now on is the failure's, not the start's or a VM hold-up's
		rate_requester mrcctl -j stats qp dev >$RATE_QP_PRE_JSON 2>/dev/null || true
		rate_requester mrcctl stats reset-stall dev
		RATE_T_BREAK=$(now_ms)
		$break
		# B's QP as last seen alive, for the checks and for a failure to show: polled
		# each second from the failure on, as the transfer's end cannot be foreseen (a
		# stalled VM eats seconds of the commands around it)
		rm -f $RATE_QP_JSON
		(set +e; while sleep 1; do
			rate_requester mrcctl -j stats qp dev >$RATE_QP_JSON.new 2>/dev/null
			jq -e 'length > 0' $RATE_QP_JSON.new >/dev/null 2>&1 &&
				mv $RATE_QP_JSON.new $RATE_QP_JSON
		done) &
		stats=$!
	fi
	wait $bw || {
		kill $stats 2>/dev/null || true
		cat /tmp/rate-bw.out >&2
		fail "the $RATE_OP transfer failed"
	}
	RATE_T_END=$(now_ms)
	[ -z "$stats" ] || { kill $stats; wait $stats; } 2>/dev/null || true
	kill $sampler $RATE_ANCHOR
}

# Host A's receive rate, MB/s, every STEP ms from FROM (ms) on, and when the transfer ended.
rate_timeline() { # FROM STEP
	awk -v from="$1" -v step="$2" -v end="$RATE_T_END" '
		$1 >= from { if (!t0) { t0 = $1; b0 = $2 }
			if ($1 - t0 >= step) { printf " %.1f", ($2 - b0) / ($1 - t0) / 1000; t0 = $1; b0 = $2 } }
		END { printf "; the transfer ended %d ms after the first\n", end - from }' $RATE_SAMPLES
}

# awk over RATE_SAMPLES with t[] and b[], NR samples, and `last`: the last sample while
# the transfer's data still came in, less one (its interval may be cut short by the end).
# What trickles in once the tool stopped posting (the path set's probe answers, say) is not
# the transfer: an interval that brought less than one message (64 KiB) does not count.
rate_awk() { # AWK-VARS... PROGRAM (of an END block's body)
	local prog=${*: -1}
	awk "${@:1:$#-1}" '
		{ t[NR] = $1; b[NR] = $2 }
		END {
			last = NR
			while (last > 2 && b[last] - b[last - 1] < 65536) last--
			last--
			'"$prog"'
		}' $RATE_SAMPLES
}

# The wire rate at host A (bytes/s, with every header: what R limits) over the last MS ms
# of the transfer, none of it before FLOOR (ms, if given). Samples come every 100 ms; an
# interval of more than RATE_GAP_MS means the sampler did not run for that long (on a busy CI
# host the whole VM may be held up: guest time jumps, tbf's bucket does not fill past its
# burst) and is left out, bytes and time; failover_measure says when it happened.
RATE_GAP_MS=1000
rate_settled() { # MS [FLOOR]
	rate_awk -v ms="$1" -v floor="${2:-0}" -v gap=$RATE_GAP_MS '
		for (i = last; i > 1 && took < ms && t[i - 1] >= floor; i--)
			if (t[i] - t[i - 1] <= gap) {
				moved += b[i] - b[i - 1]
				took += t[i] - t[i - 1]
			}
		printf "%d\n", took ? moved * 1000 / took : 0'
}

# The longest time between two samples, ms: about 100 unless the sampler was held up.
rate_max_gap() {
	awk 'NR > 1 && $1 - t > g { g = $1 - t } { t = $1 } END { print g + 0 }' $RATE_SAMPLES
}

# One QP sprayed (or pinned, by host B's profile) for 10 s: its settled wire rate, MB/s.
rate_of_qp() {
	rate_run 10
	awk -v r="$(rate_settled 6000)" 'BEGIN { printf "%.3f\n", r / 1e6 }'
}

# On a fresh rate_fabric: BREAK 4 s into a 14 s sprayed transfer from B to A. Sets
#   RATE_BEFORE  the wire rate over the 3 s before the failure (bytes/s),
#   RATE_AFTER   the settled rate: over the last 4 s of the transfer,
#   RATE_STALL   what the failure cost, in ms of transfer at the settled rate: the bytes
#                short of RATE_AFTER over the 3 s after the failure, divided by it (0 when
#                the surviving paths took over at once; 3000 when nothing came through;
#                a sampling gap in those 3 s counts as stalled). A settled rate below half
#                of (N-1)/N of before is no yardstick (a transfer that never recovered
#                would be short of nothing): that half is used instead,
#   RATE_KSTALL  the kernel's own fact: the longest time the oldest unacknowledged PSN of
#                B's QP waited from the failure on (qp-stats stall-max-ns, reset as the
#                failure comes), ms, and RATE_KSTALL_RTT the same in the QP's smoothed
#                round trips (queues included),
#   RATE_KSTALL_PRE the longest wait before the failure (ms): the start's, or the VM's,
#   RATE_RTO     the retransmit timeouts of B's QP from the failure on,
#   RATE_ECN_CUTS the cuts of B's window by ECN marks (the RED queues mark; at most one a
#                round trip), and RATE_ECN_PATH the marks it left to the path set
#                (qp-stats ecn-decreases, ecn-path-marks),
# and prints them in one line headed WHAT.
failover_measure() { # WHAT BREAK
	local what=$1
	rate_run 14 4 "$2"
	RATE_AFTER=$(rate_settled 4000 $((RATE_T_BREAK + 3000)))
	rate_awk -v tf="$RATE_T_BREAK" -v post="$RATE_AFTER" -v gap=$RATE_GAP_MS \
		-v n="$RATE_SPINES" '
		for (i = 2; i <= NR; i++)
			if (t[i] <= tf && t[i - 1] >= tf - 3000 && t[i] - t[i - 1] <= gap) {
				pre += b[i] - b[i - 1]
				pre_t += t[i] - t[i - 1]
			}
		if (pre_t && post < pre * 1000 / pre_t * (n - 1) / n / 2)
			post = pre * 1000 / pre_t * (n - 1) / n / 2
		# the bytes short of the settled rate in the 3 s after the failure; time not
		# sampled (3000 - cov) counts as stalled, so the stall is an upper bound
		for (i = 2; i <= NR && t[i - 1] < tf + 3000; i++) {
			if (t[i] <= tf || t[i] - t[i - 1] > gap)
				continue
			from = t[i - 1] > tf ? t[i - 1] : tf
			to = t[i] < tf + 3000 ? t[i] : tf + 3000
			cov += to - from
			got = (b[i] - b[i - 1]) * (to - from) / (t[i] - t[i - 1])
			want = post * (to - from) / 1000
			if (want > got)
				short += want - got
		}
		printf "%d %d\n", pre_t ? pre * 1000 / pre_t : 0,
			post ? short * 1000 / post + 3000 - cov : 3000' \
		>/tmp/rate-result.out
	read -r RATE_BEFORE RATE_STALL </tmp/rate-result.out
	read -r RATE_KSTALL RATE_KSTALL_RTT <<<"$(jq -r 'max_by(.stall_max_ns) // {} |
		"\((.stall_max_ns // 0) / 1000000 | floor) " +
		"\(if (.srtt_ns // 0) > 0 then .stall_max_ns / .srtt_ns | floor else -1 end)"' \
		$RATE_QP_JSON 2>/dev/null || echo "-1 -1")"
	RATE_KSTALL_PRE=$(jq -r 'map(.stall_max_ns // 0) | max // 0 | . / 1000000 | floor' \
		$RATE_QP_PRE_JSON 2>/dev/null || echo -1)
	RATE_RTO=$(jq -r -n --slurpfile pre $RATE_QP_PRE_JSON --slurpfile post $RATE_QP_JSON \
		'($post[0] | map(.timeouts // 0) | add // 0) -
		 ($pre[0] | map(.timeouts // 0) | add // 0)' 2>/dev/null || echo -1)
	read -r RATE_ECN_CUTS RATE_ECN_PATH <<<"$(jq -r '
		"\(map(.ecn_decreases // 0) | add // 0) \(map(.ecn_path_marks // 0) | add // 0)"' \
		$RATE_QP_JSON 2>/dev/null || echo "0 0")"
	awk -v w="$what" -v b="$RATE_BEFORE" -v s="$RATE_STALL" -v a="$RATE_AFTER" \
		-v n="$RATE_SPINES" -v g="$(rate_max_gap)" -v gap=$RATE_GAP_MS -v k="$RATE_KSTALL" \
		-v kr="$RATE_KSTALL_RTT" -v kp="$RATE_KSTALL_PRE" -v rto="$RATE_RTO" \
		-v ec="$RATE_ECN_CUTS" -v ep="$RATE_ECN_PATH" \
		'BEGIN {
		printf "%s: before %.2f MB/s, stall %d ms (in the kernel: %d ms, %d RTTs;" \
			" %d ms before the failure; %d RTO expiries)," \
			" after %.2f MB/s (%.2f of before; (N-1)/N = %.2f); ECN: %d cuts of the" \
			" window, %d marks left to the path set%s\n", w, b / 1e6, s, k, kr, kp, rto,
			a / 1e6, b ? a / b : 0, (n - 1) / n, ec, ep,
			(g > gap ? sprintf("; sampling paused for up to %d ms: not in the rates," \
			" counted in the stall", g) : "") }'
}
