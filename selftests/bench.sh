#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): the same perftest cases over rxe and over mrc in
# one VM run, printed side by side with the mrc/rxe ratio.
#
# mrc: two hosts in two namespaces (lib_fabric.sh).
# rxe: on this 6.1 kernel rxe only works in the initial namespace, so both
# of its devices live there, on two ends of one veth, and policy routing
# forces traffic between the two local addresses over the wire:
#
#   [ rxea ] rxa0 10.12.0.1 <-- veth --> rxb0 10.12.0.2 [ rxeb ]
#   from .2 to .1 iif lo -> table 101 (via rxb0); from .1 to .2 iif lo -> 102
#
# Numbers under TCG are noisy; compare ratios within one run.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

R1=10.12.0.1
R2=10.12.0.2
PT="-F"
ITER_BW=${ITER_BW:-500}
ITER_LAT=${ITER_LAT:-1000}
REPEAT=${REPEAT:-3}

rxe_pair() {
	modprobe crc32_generic	# rxe asks the crypto API for it at run time
	modprobe rdma_rxe
	ip link add rxa0 type veth peer name rxb0
	ip addr add $R1/24 dev rxa0
	ip addr add $R2/24 dev rxb0
	ip link set rxa0 up
	ip link set rxb0 up
	for d in all rxa0 rxb0; do
		sysctl -qw net.ipv4.conf.$d.accept_local=1 net.ipv4.conf.$d.rp_filter=0
	done
	ip rule add pref 100 lookup local
	ip rule del pref 0 lookup local
	ip rule add pref 10 from $R2 to $R1 iif lo lookup 101
	ip rule add pref 11 from $R1 to $R2 iif lo lookup 102
	ip route add $R1 dev rxb0 table 101
	ip route add $R2 dev rxa0 table 102
	ip neigh replace $R1 lladdr "$(cat /sys/class/net/rxa0/address)" dev rxb0 nud permanent
	ip neigh replace $R2 lladdr "$(cat /sys/class/net/rxb0/address)" dev rxa0 nud permanent
	rdma link add rxea type rxe netdev rxa0
	rdma link add rxeb type rxe netdev rxb0
	wait_until 20 gid_index_of rxea "$(gid_of_v4 $R1)"
	wait_until 20 gid_index_of rxeb "$(gid_of_v4 $R2)"
}

# One perftest run; prints the result line's value: BW average (MB/s) or
# typical latency (usec).
run_one() { # KIND(rxe|mrc) TOOL ARGS...
	local kind=$1 tool=$2 out col srv cli
	shift 2
	case $tool in *_lat) col=5 ;; *) col=4 ;; esac
	if [ "$kind" = rxe ]; then
		"$tool" -d rxea -x "$(gid_index_of rxea "$(gid_of_v4 $R1)")" $PT "$@" >/dev/null 2>&1 &
		srv=$!
		sleep 1
		out=$(timeout 300 "$tool" -d rxeb -x "$(gid_index_of rxeb "$(gid_of_v4 $R2)")" \
			$PT "$@" $R1 2>&1)
	else
		na "$tool" -d mrcsta -x "$(gid_index_of mrcsta "$(gid_of_v4 $A4)")" $PT "$@" >/dev/null 2>&1 &
		srv=$!
		sleep 1
		out=$(nb timeout 300 "$tool" -d mrcstb -x "$(gid_index_of mrcstb "$(gid_of_v4 $B4)")" \
			$PT "$@" $A4 2>&1)
	fi
	wait $srv
	echo "$out" | awk -v c=$col '/^ +[0-9]+ +[0-9]+ +[0-9.]+/ { v = $c } END { print v ? v : "fail" }'
}

# The median of REPEAT runs.
run_median() {
	local i vals=()
	for i in $(seq 1 "$REPEAT"); do vals+=("$(run_one "$@")"); done
	printf '%s\n' "${vals[@]}" | grep -v fail | sort -g | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "fail" }'
}

row() { # NAME UNIT TOOL ARGS...
	local name=$1 unit=$2 r m
	shift 2
	r=$(run_median rxe "$@")
	m=$(run_median mrc "$@")
	awk -v n="$name" -v u="$unit" -v r="$r" -v m="$m" 'BEGIN {
		ratio = (r + 0 > 0 && m + 0 > 0) ? sprintf("%.2f", m / r) : "-"
		printf "%-26s %-6s %12s %12s %8s\n", n, u, r, m, ratio }'
}

cleanup_world
mrc_load
two_hosts
rxe_pair

echo "BENCH: median of $REPEAT runs, perftest $PT; TCG VM, $(nproc) vCPUs"
printf '%-26s %-6s %12s %12s %8s\n' case unit rxe mrc mrc/rxe
row "ib_write_bw 64KiB 1QP" MB/s ib_write_bw -s 65536 -n "$ITER_BW"
row "ib_read_bw 64KiB 1QP" MB/s ib_read_bw -s 65536 -n "$ITER_BW"
row "ib_send_bw 64KiB 1QP" MB/s ib_send_bw -s 65536 -n "$ITER_BW"
row "ib_write_bw 64KiB 4QP" MB/s ib_write_bw -s 65536 -q 4 -n "$ITER_BW"
row "ib_write_lat 2B" usec ib_write_lat -s 2 -n "$ITER_LAT"
row "ib_read_lat 2B" usec ib_read_lat -s 2 -n "$ITER_LAT"
row "ib_send_lat 2B" usec ib_send_lat -s 2 -n "$ITER_LAT"
echo "BENCH: done"
cleanup_world
