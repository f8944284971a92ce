# SPDX-License-Identifier: GPL-2.0
# lib_fabric.sh - two hosts in two network namespaces joined by a veth
# pair, each with its own mrc device (sourced after lib.sh).
#
#   netns msta                                   netns mstb
#   [ mrcsta ]                                   [ mrcstb ]
#   msta0 2001:db8:a::1 10.11.0.1 <-- veth --> mstb0 2001:db8:a::2 10.11.0.2

A6=2001:db8:a::1
B6=2001:db8:a::2
A4=10.11.0.1
B4=10.11.0.2

na() { ip netns exec msta "$@"; }
nb() { ip netns exec mstb "$@"; }

two_hosts() {
	mrc_load
	ip netns add msta
	ip netns add mstb
	ip link add msta0 type veth peer name mstb0
	ip link set msta0 netns msta
	ip link set mstb0 netns mstb
	na ip addr add $A6/64 dev msta0 nodad
	nb ip addr add $B6/64 dev mstb0 nodad
	na ip addr add $A4/24 dev msta0
	nb ip addr add $B4/24 dev mstb0
	na ip link set lo up
	nb ip link set lo up
	na ip link set msta0 up
	nb ip link set mstb0 up
	# Resolve the IPv6 neighbours now: ib_core's modify_qp looks up the
	# peer's MAC (ib_resolve_eth_dmac) and, for a neighbour not yet valid,
	# sleeps its full 1 s timeout although ND answers in milliseconds.
	# (IPv4 never shows it: the tools' TCP exchange has resolved ARP.)
	wait_until 10 nb ping -6 -c1 -W1 $A6
	na rdma link add mrcsta type mrc netdev msta0
	nb rdma link add mrcstb type mrc netdev mstb0
	wait_until 20 gid_index_of mrcsta "$(gid_of_v6 $A6)"
	wait_until 20 gid_index_of mrcstb "$(gid_of_v6 $B6)"
}

# The sysfs form of an IPv6 address (4-digit groups) / of a mapped IPv4.
gid_of_v6() {
	local a=$1 head tail groups i out=""
	case $a in *::*) head=${a%%::*} tail=${a##*::} ;; *) head=$a tail="" ;; esac
	IFS=: read -ra h <<<"$head"
	IFS=: read -ra t <<<"$tail"
	groups=("${h[@]}")
	for ((i = ${#h[@]} + ${#t[@]}; i < 8; i++)); do groups+=(0); done
	groups+=("${t[@]}")
	for i in "${groups[@]}"; do out+=$(printf '%04x:' "0x${i:-0}"); done
	echo "${out%:}"
}

gid_of_v4() {
	local IFS=.
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$1" "$2" "$3" "$4"
}

counter() { # DEV NAME -> value of an mrc hw counter
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"
}

veth_tx_bytes() { # NETNS DEV
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"
}

# Start "$@" in the background in netns A, wait until it listens on TCP
# port PORT (the verbs tools exchange QP numbers over TCP).
server_a() { # PORT CMD...
	local port=$1
	shift
	na "$@" &
	SERVER_PID=$!
	wait_until 20 na sh -c "grep -q ':$(printf %04X "$port") ' /proc/net/tcp /proc/net/tcp6"
}
