#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mpirun's remote shell for hosts that are network namespaces: Open MPI runs
#     mpi_rsh.sh HOST COMMAND-WORDS...
# as it would run ssh, to start its daemon on HOST. The command runs in HOST's namespace under
# its own host name (Open MPI tells nodes apart by name; the VM's kernel has one for all), in
# the environment /tmp/mrc-mpi-env/HOST lists (VAR=VALUE words: which mrc device and GID UCX
# takes there), which every process the daemon starts inherits.
host=$1
shift
# shellcheck disable=SC2046 # the file's words are the assignments
exec ip netns exec "$host" unshare --uts env $(cat "/tmp/mrc-mpi-env/$host") \
	sh -c "hostname $host && $*"
