# SPDX-License-Identifier: GPL-2.0
# lib_mpi.sh - Open MPI jobs whose hosts are network namespaces (sourced after lib.sh). The
# caller writes the hostfile (MPI_HOSTFILE, one "NETNS slots=1" line per host) and each host's
# environment file (/tmp/mrc-mpi-env/NETNS, read by mpi_rsh.sh); mpirun runs on the first host.

MPI_RSH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mpi_rsh.sh
MPI_HOSTFILE=/tmp/mrc-mpi-hosts

# Open MPI's transport: over mrc, the pml ucx with UCX held to mrc's verbs transports (RC for
# data, UD for UCX's wire-up; no shared memory, no TCP); or the TCP baseline, the pml ob1 with
# the tcp btl.
mpi_mca() { # mrc|tcp
	case $1 in
	mrc) echo "--mca pml ucx --mca pml_ucx_devices any --mca btl self --mca osc ^ucx" \
		"-x UCX_TLS=rc_verbs,ud_verbs,self -x UCX_WARN_UNUSED_ENV_VARS=n" ;;
	tcp) echo "--mca pml ob1 --mca btl self,tcp --mca osc ^ucx" ;;
	esac
}

# mpirun on host NETNS (as mpi_rsh.sh would run it there) over the hostfile's N hosts, one rank
# each, running mrc_allreduce JOB-ARGS; its output in MPI_OUT, its status returned.
# MPI_MCA_EXTRA: more of mpirun's options.
mpi_launch() { # N mrc|tcp NETNS JOB-ARGS...
	local n=$1 transport=$2 ns=$3
	shift 3
	# shellcheck disable=SC2046 # the environment file's and mpi_mca's words
	MPI_OUT=$(ip netns exec "$ns" unshare --uts env $(cat "/tmp/mrc-mpi-env/$ns") SHELL=/bin/bash \
		sh -c "hostname $ns && exec timeout 600 mpirun --allow-run-as-root \
		--hostfile $MPI_HOSTFILE -np $n --map-by node --mca plm_rsh_agent $MPI_RSH \
		$(mpi_mca "$transport") ${MPI_MCA_EXTRA:-} mrc_allreduce $*" 2>&1)
}

# A job's output on stdin without the ranks' backtraces (Open MPI's "[host:pid] [ n]" frames
# and UCX's numbered ones): its messages, what a failed job leaves to go by.
mpi_messages() {
	grep -vE '^\[[^]]*\] \[ *[0-9]+\] |^ *[0-9]+ +/'
}

# The pid of the rank (mrc_allreduce) running in host NETNS (fails while there is none).
mpi_rank_pid() { # NETNS
	local p
	for p in $(ip netns pids "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = mrc_allreduce ] && { echo "$p"; return 0; }
	done
	return 1
}
