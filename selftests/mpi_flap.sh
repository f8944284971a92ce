#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A training job's communication through a fabric that keeps failing: mrc_allreduce (one rank on
# each of 4 hosts, MPI_Allreduce of a gradient-sized buffer per step, every element checked) on
# the two-plane leaf-spine fabric. One job goes through three phases: quiet, spine links flapping
# every second, and all four spines of plane 1 taken out at once and put back (four core
# switches hot-swapped). Over mrc every step is verified and no rank fails; the p99 step time of
# each event phase should be within 1.2x of the quiet phase's, and is not yet (an expected
# failure, P99_XFAIL). The same job over Open MPI's TCP transport is the baseline, printed beside
# (IPv4, and so TCP, is routed on plane 1 only).
#
#   hosts A, C -- leaf A  == spines 1-4 ==  leaf B  -- hosts B, D        plane 1
#   hosts A, C -- leaf A2 == spines 5-8 ==  leaf B2 -- hosts B, D        plane 2
#
# The suite runs the mrc job with phases of 15 s (quiet), 20 s (flaps) and 10 s (spines out);
# `make soak` (MRC_SOAK=1) runs 60 s, 60 s and 30 s, and the TCP job too. Each job prints its
# steps ("flapstep"), its events ("flapevent") and a row per phase ("flapphase") for the plot
# and table (make soak: build/flapjob.png).

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"
source "$(dirname "$0")/lib_flap.sh"
source "$(dirname "$0")/lib_mpi.sh"

CLOS_HOSTS=4
SPINES=4			# per plane
QUIET_SECONDS=$(soak_seconds 15 60)
FLAP_SECONDS=$(soak_seconds 20 60)
SWAP_SECONDS=$(soak_seconds 10 30)
SETTLE_SECONDS=5		# between the phases: a step in flight when one ends is not the next's
JOB_BYTES=$((1 << 20))		# a step of some 350 ms under TCG: tens of steps a phase
P99_LIMIT=1.2
JOB_OUT=/tmp/flapjob.out

# The fabric, and the job's hosts: each rank's UCX on its host's mrc device and IPv6 GID (which
# both planes route; the IPv4-mapped one only plane 1).
flap_world() {
	local h gid
	clos_two_planes $SPINES
	: >$MPI_HOSTFILE
	mkdir -p /tmp/mrc-mpi-env
	for h in $(clos_hosts); do
		echo "mst$h slots=1" >>$MPI_HOSTFILE
		gid=$(gid_index_of mrcst$h "$(gid_of_v6 "$(clos_addr6 $h)")")
		echo "UCX_NET_DEVICES=mrcst$h:1 UCX_IB_GID_INDEX=$gid" >"/tmp/mrc-mpi-env/mst$h"
	done
}

# Every host runs its rank (fails while one does not).
ranks_running() {
	local h
	for h in $(clos_hosts); do mpi_rank_pid "mst$h" >/dev/null || return 1; done
}

event() { echo "flapevent $1 all $EPOCHREALTIME $2"; } # TRANSPORT WHAT

# While the job runs, every 2 s: each host's QPs as mrcctl sees them, the latest kept (the QPs go
# with the job), so that a slow step can be told apart: an mrc QP whose oldest PSN waited that
# long (stall_max_ns, timeouts), or a wait above the transport.
qp_watch() {
	local h
	rm -f /tmp/flapqp.*.json
	while sleep 2; do
		for h in $(clos_hosts); do
			ip netns exec mst$h mrcctl -j stats qp dev mrcst$h >/tmp/flapqp.$h.new 2>/dev/null &&
				jq -e 'length > 0' /tmp/flapqp.$h.new >/dev/null 2>&1 &&
				mv /tmp/flapqp.$h.new /tmp/flapqp.$h.json
		done
	done
}

# One row per host of what qp_watch saw last: "flapqp HOST qps N timeouts N retransmits N
# stall_max_ms N wr_wait_max_ms N read_cwnd MIN-MAX" (the longest any QP's oldest PSN waited,
# and its oldest work request: a READ waits for its responses after its request is
# acknowledged; the READ windows, in responses).
qp_rows() {
	local h
	for h in $(clos_hosts); do
		jq -r --arg h "$h" '"flapqp \($h) qps \(length) timeouts \(map(.timeouts // 0) | add)" +
			" retransmits \(map(.retransmits // 0) | add)" +
			" stall_max_ms \(map(.stall_max_ns // 0) | max / 1e6 | floor)" +
			" wr_wait_max_ms \(map(.wr_wait_max_ns // 0) | max / 1e6 | floor)" +
			" read_cwnd \(map(.read_cwnd // 0) | min)-\(map(.read_cwnd // 0) | max)"' \
			/tmp/flapqp.$h.json 2>/dev/null || echo "flapqp $h none seen"
	done
}

# Plane 1's spines (1 .. SPINES) lose every link at once, and come back after SECONDS.
hot_swap_plane1() { # TRANSPORT SECONDS
	local i
	event "$1" out
	for i in $(seq 1 $SPINES); do
		clos_spine_link a "$i" down
		clos_spine_link b "$i" down
	done
	sleep "$2"
	for i in $(seq 1 $SPINES); do
		clos_spine_link a "$i" up
		clos_spine_link b "$i" up
	done
	event "$1" back
}

# The step rows of a phase (FROM and TO in epoch seconds): for the quiet phase those that ended
# by TO; for an event phase every step that ran during it, so a step its events held up counts
# however early it began or late it ended (one stalled step may span two phases).
# Prints "flapphase TRANSPORT PHASE steps N median_ms X p99_ms Y max_ms Z" (nearest rank, as
# mrc_allreduce's summary).
phase_row() { # TRANSPORT PHASE FROM TO
	sed -n 's/^step //p' $JOB_OUT | awk -v t="$1" -v p="$2" -v from="$3" -v to="$4" -v e="$START" '
		{
			begin = e + $2; end = begin + $3 / 1000
			if (p == "quiet" ? end > from && end <= to : end > from && begin < to) ms[n++] = $3
		}
		function at(q) { i = int(q * (n - 1) + 0.5); return ms[i] }
		END {
			for (i = 1; i < n; i++)	# insertion sort: tens of steps
				for (j = i; j > 0 && ms[j - 1] > ms[j]; j--) { x = ms[j]; ms[j] = ms[j - 1]; ms[j - 1] = x }
			if (n) printf "flapphase %s %s steps %d median_ms %.1f p99_ms %.1f max_ms %.1f\n",
				t, p, n, at(0.5), at(0.99), at(1)
			else printf "flapphase %s %s steps 0\n", t, p
		}'
}

# The job over TRANSPORT through the three phases. Its rows are printed, its phases' rows left
# in PHASES; fails when the job failed.
flap_job() { # TRANSPORT
	local transport=$1 job watch rc=0 secs h t0 t_flaps t_flaps_end t_out t_back
	secs=$((QUIET_SECONDS + FLAP_SECONDS + SWAP_SECONDS + 4 * SETTLE_SECONDS))
	flap_world
	(mpi_launch 4 "$transport" msta --seconds $secs --bytes $JOB_BYTES || rc=$?
	 echo "$MPI_OUT" >$JOB_OUT; exit $rc) &
	job=$!
	wait_until 120 ranks_running
	qp_watch &
	watch=$!
	t0=$EPOCHREALTIME
	sleep $((QUIET_SECONDS + SETTLE_SECONDS))
	event "$transport" start
	t_flaps=$EPOCHREALTIME
	flap_links $((2 * SPINES)) "$FLAP_SECONDS" 1000
	t_flaps_end=$EPOCHREALTIME
	event "$transport" end
	sleep $SETTLE_SECONDS
	t_out=$EPOCHREALTIME
	hot_swap_plane1 "$transport" "$SWAP_SECONDS"
	t_back=$EPOCHREALTIME
	wait $job || rc=$?
	{ kill $watch; wait $watch; } 2>/dev/null
	qp_rows
	START=$(sed -n 's/^start_epoch //p' $JOB_OUT)
	if [ $rc -ne 0 ] || [ -z "$START" ] || ! grep -q '^summary ' $JOB_OUT; then
		mpi_messages <$JOB_OUT | head -n 40
		for h in $(clos_hosts); do counters_of mrcst$h; done
		return 1
	fi
	for h in $(clos_hosts); do counters_of mrcst$h; done	# for the next reader of a stall
	echo "flapstart $transport all $START"
	sed -n "s/^step /flapstep $transport all /p" $JOB_OUT
	grep '^summary ' $JOB_OUT
	# the quiet phase: from the ranks' start to the flaps; each event phase until SETTLE after it
	PHASES=$(phase_row "$transport" quiet "$t0" "$t_flaps"
		 phase_row "$transport" flaps "$t_flaps" "$(plus "$t_flaps_end" $SETTLE_SECONDS)"
		 phase_row "$transport" hotswap "$t_out" "$(plus "$t_back" $SETTLE_SECONDS)")
	echo "$PHASES"
}

plus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", a + b }'; } # A B

# FIELD of PHASE's row in PHASES.
phase_field() { # PHASE FIELD
	echo "$PHASES" | awk -v p="$1" -v f="$2" '$3 == p { for (i = 4; i < NF; i++) if ($i == f) print $(i + 1) }'
}

# Over mrc: the job passed with every step verified, and each event phase's p99 is within
# P99_LIMIT of the quiet phase's. The p99 is a known failure for now (P99_XFAIL): the job goes
# through the flaps and the swap with a timeout or two per host (READ responses are found lost by
# order and by silence, and the responder turns the EVs they die on suspect), but a step still
# takes seconds now and then: in one run the flaps' p99 was 10.4 s and the hot swap's 4.7 s
# (21-26 s before the responder's verdicts), while no QP's oldest PSN waited over 1.1 s. A QP's
# oldest work request did wait that long (wr_wait_max_ms in the flapqp rows, up to 7.5 s): a
# READ waiting for its responses. Why that long is not found yet.
P99_XFAIL=1
mrc_job_through_events() {
	local phase p99 base over=""
	flap_job mrc || fail "the job failed over mrc"
	grep '^summary ' $JOB_OUT | awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		END { exit !(v["steps"] > 0 && v["steps"] == v["verified"]) }' ||
		fail "not every step verified"
	base=$(phase_field quiet p99_ms)
	[ "$(phase_field quiet steps)" -ge 5 ] || fail "too few steps in the quiet phase"
	for phase in flaps hotswap; do
		[ "$(phase_field $phase steps)" -ge 1 ] || fail "no step in the $phase phase"
		p99=$(phase_field $phase p99_ms)
		echo "mrc $phase: p99 $p99 ms, quiet $base ms"
		awk -v a="$p99" -v b="$base" -v l=$P99_LIMIT 'BEGIN { exit !(a <= l * b) }' ||
			over+=" $phase: $p99 ms;"
	done
	[ -n "$over" ] || return 0
	over="p99 over $P99_LIMIT x the quiet phase's $base ms:$over"
	[ -z "$P99_XFAIL" ] || xfail "$over"
	fail "$over"
}

# The TCP baseline through the same phases: printed, not judged (`make soak` runs it; CI's hour
# has no room for it).
tcp_job_through_events() {
	[ -n "${MRC_SOAK:-}" ] || skip "the TCP baseline runs under make soak"
	# TCP over the hosts' plane-1 addresses (10.N.0.1): IPv4 is not routed on plane 2, whose
	# addresses (10.3N.0.1) Open MPI would try as well, and hang on
	MPI_MCA_EXTRA="--mca btl_tcp_if_include 10.1.0.0/16,10.2.0.0/16,10.3.0.0/16,10.4.0.0/16" \
		flap_job tcp || echo "flapphase tcp all failed"
}

ktap_run \
	mrc_job_through_events \
	tcp_job_through_events
