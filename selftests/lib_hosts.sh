# SPDX-License-Identifier: GPL-2.0
# lib_hosts.sh - N hosts on one switch: a network namespace per host (msth1 ... msthN), each
# with an mrc device (mrcsth1 ... mrcsthN) on its veth, and a bridge in the switch's namespace
# (mstsw) joining them (sourced after lib.sh and lib_fabric.sh).
#
#   netns msth<i> [ mrcsth<i> ] msth<i>0 10.12.0.<i> 2001:db8:c::<i>
#                                 |
#                   veth msth<i>s in netns mstsw, a port of bridge mstbr

HOSTS_NET4=10.12.0
HOSTS_NET6=2001:db8:c:

host_ns() { echo "msth$1"; }      # I -> the host's namespace
host_dev() { echo "mrcsth$1"; }   # I -> its mrc device
host_addr4() { echo "$HOSTS_NET4.$1"; }
host_addr6() { echo "$HOSTS_NET6:$1"; }
nh() { local i=$1; shift; ip netns exec "$(host_ns "$i")" "$@"; } # I CMD...

star_hosts() { # N
	local n=$1 i
	mrc_load
	# every hop queues in the same per-CPU backlog (lib_clos.sh says why it is raised there):
	# READ responses in both directions, veth to bridge to veth, overflow its 1000 packets
	sysctl -qw net.core.netdev_max_backlog=100000
	ip netns add mstsw
	ip -n mstsw link add mstbr type bridge
	ip -n mstsw link set mstbr up
	for i in $(seq "$n"); do
		ip netns add "$(host_ns "$i")"
		ip link add "msth${i}0" netns "$(host_ns "$i")" type veth peer name "msth${i}s" \
			netns mstsw
		ip -n mstsw link set "msth${i}s" master mstbr up
		nh "$i" ip addr add "$(host_addr4 "$i")/24" dev "msth${i}0"
		nh "$i" ip addr add "$(host_addr6 "$i")/64" dev "msth${i}0" nodad
		nh "$i" ip link set lo up
		nh "$i" ip link set "msth${i}0" up
	done
	for i in $(seq "$n"); do
		nh "$i" rdma link add "$(host_dev "$i")" type mrc netdev "msth${i}0"
	done
	for i in $(seq "$n"); do
		wait_until 20 gid_index_of "$(host_dev "$i")" "$(gid_of_v4 "$(host_addr4 "$i")")"
		# resolve the neighbours now (ib_core's modify_qp waits a second for an unresolved one)
		wait_until 10 nh "$i" ping -c1 -W1 "$(host_addr4 $(( i % n + 1 )))"
	done
}

# The Tcp OutSegs counter of host I's namespace: segments its TCP sockets sent.
tcp_out_segs() { # I
	nh "$1" awk '/^Tcp:/ { if (n++) print $12 }' /proc/net/snmp
}
