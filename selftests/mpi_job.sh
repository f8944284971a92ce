#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An MPI job over mrc, launched as on a cluster: Open MPI's mpirun (pml ucx, UCX held to mrc's
# rc_verbs and ud_verbs transports) starts one rank per host, each host a network namespace
# reached through mpi_rsh.sh, and the ranks run mrc_allreduce (userspace/jobs), which checks every
# element of every step's sum. mrc's counters prove the ranks' data went over mrc, and the hosts'
# TCP counters that TCP did not carry it. A rank killed mid-job takes the job down and leaves no
# QP or MR behind on any host.
#
#   msth1 ... msth4 [ mrcsth<i> ] -- veth -- bridge mstbr (netns mstsw)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_hosts.sh"
source "$(dirname "$0")/lib_mpi.sh"

# mpirun from host 1 (under its own host name, as mpi_rsh.sh runs the others) over N hosts, one
# rank each; TRANSPORT mrc or tcp; the rest goes to mrc_allreduce. Output in MPI_OUT. Each
# host's UCX takes its own mrc device (mpi_rsh.sh's environment files).
mpi_run() { # N TRANSPORT JOB-ARGS...
	local n=$1 transport=$2 i
	shift 2
	: >$MPI_HOSTFILE
	mkdir -p /tmp/mrc-mpi-env
	for i in $(seq "$n"); do
		echo "$(host_ns "$i") slots=1" >>$MPI_HOSTFILE
		echo "UCX_NET_DEVICES=$(host_dev "$i"):1" >"/tmp/mrc-mpi-env/$(host_ns "$i")"
	done
	mpi_launch "$n" "$transport" "$(host_ns 1)" "$@"
}

# What a failed job leaves to go by: its messages (not the ranks' backtraces) and the hosts'
# counters.
mpi_diag() { # N
	local i
	echo "$MPI_OUT" | mpi_messages | head -n 60
	for i in $(seq "$1"); do counters_of "$(host_dev "$i")"; done
	dmesg | tail -n 15
}

# The pid of the rank running on host I (fails while there is none).
rank_pid() { mpi_rank_pid "$(host_ns "$1")"; } # I

mrc_tx_bytes() { # I
	counter "$(host_dev "$1")" tx_bytes
}

# The job over mrc: it passes, every step verified, each rank's device sent at least half the
# buffer per step, and TCP carried less than a tenth of the data.
mpi_allreduce_ranks() { # N
	local n=$1 steps=3 bytes=$((16 << 20)) i before=() segs=() sent tcp
	star_hosts "$n"
	for i in $(seq "$n"); do
		before[i]=$(mrc_tx_bytes "$i")
		segs[i]=$(tcp_out_segs "$i")
	done
	mpi_run "$n" mrc --steps $steps --bytes $bytes || { mpi_diag "$n"; fail "the job failed over mrc"; }
	echo "$MPI_OUT" | tail -n $((steps + 1))
	assert_match "$MPI_OUT" "summary ranks $n bytes $bytes steps $steps verified $steps " \
		"every step verified"
	for i in $(seq "$n"); do
		sent=$(( $(mrc_tx_bytes "$i") - before[i] ))
		tcp=$(( ($(tcp_out_segs "$i") - segs[i]) * 1500 ))
		echo "host $i: mrc tx_bytes +$sent, TCP at most $tcp bytes"
		[ $sent -ge $((steps * bytes / 2)) ] || fail "host $i sent only $sent bytes over mrc"
		[ $tcp -lt $((steps * bytes / 10)) ] || fail "host $i's TCP sent up to $tcp bytes"
	done
}

# 4 ranks, as issue 17 asks (2 cost CI's hour 40 s more and showed nothing 4 do not)
mpi_allreduce_4_ranks() { mpi_allreduce_ranks 4; }

# The same job over Open MPI's TCP transport, the baseline of the flapping-fabric benchmark: it
# passes too, and mrc's counters do not move with its data.
mpi_allreduce_tcp() {
	local n=2 before
	star_hosts $n
	before=$(mrc_tx_bytes 1)
	mpi_run $n tcp --steps 3 --bytes $((4 << 20)) || { mpi_diag $n; fail "the job failed over TCP"; }
	assert_match "$MPI_OUT" "verified 3 " "every step verified"
	[ $(( $(mrc_tx_bytes 1) - before )) -lt $((4 << 20)) ] || fail "mrc carried the TCP job"
}

# kill -9 of one rank mid-job: mpirun ends the job (non-zero), and when every process is gone no
# host has a user QP, MR, CQ, PD or context left.
mpi_rank_killed() {
	local n=4 pid i
	star_hosts $n
	mpi_run $n mrc --seconds 120 --bytes $((1 << 20)) &
	local job=$!
	wait_until 60 rank_pid 3
	sleep 2
	pid=$(rank_pid 3)
	echo "killing rank on $(host_ns 3) (pid $pid)"
	kill -9 "$pid"
	if wait $job; then fail "mpirun succeeded although a rank was killed"; fi
	for i in $(seq $n); do
		wait_until 30 no_resources "$(host_dev "$i")"
	done
}

ktap_run \
	mpi_allreduce_4_ranks \
	mpi_allreduce_tcp \
	mpi_rank_killed
