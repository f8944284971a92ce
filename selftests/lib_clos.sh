# SPDX-License-Identifier: GPL-2.0
# A leaf-spine (Clos) fabric of network namespaces for the multipath tests: two hosts, a leaf
# each, and SPINES spines; every leaf-spine pair is one veth link. The leaves spread traffic
# over the spines by ECMP, hashing the UDP ports (fib_multipath_hash_policy 1), so each UDP
# source port a host sprays over is a path:
#
#          netns msta                                            netns mstb
#       [ host A, mrcsta ]                                    [ host B, mrcstb ]
#        2001:db8:1::1                                          2001:db8:2::1
#              |                                                      |
#        [ leaf A  mstla ] ===== msts1 ... msts<SPINES> ===== [ leaf B  mstlb ]
#          ECMP over the spines     (one link to each leaf)     ECMP over the spines
#
# Spine i joins leaf A over 2001:db8:a<i>::/64 (leaf ::1, spine ::2) and leaf B over
# 2001:db8:b<i>::/64 (spine ::1, leaf ::2). The fabric routes IPv4 the same way (hosts
# 10.1.0.1 and 10.2.0.1, spine links 10.10<i>.0.0/24 and 10.20<i>.0.0/24): the verbs tools
# exchange QP numbers over TCP/IPv4. Host devices keep the names of lib_fabric.sh (msta0/mstb0,
# mrcsta/mrcstb) so its helpers (na, nb, server_a, counter) apply.

CLOS_A6=2001:db8:1::1
CLOS_B6=2001:db8:2::1
CLOS_A4=10.1.0.1
CLOS_B4=10.2.0.1
# lib_fabric.sh's helpers (stress, ...) address the hosts by these
A6=$CLOS_A6 B6=$CLOS_B6 A4=$CLOS_A4 B4=$CLOS_B4

ns_ex() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# The fabric's MTU (CLOS_MTU=9000: jumbo frames, as RDMA fabrics run, so the devices' IB MTU
# is 4096).
CLOS_MTU=${CLOS_MTU:-1500}

# A veth between two namespaces, with an IPv6 and an IPv4 address at each end, up.
clos_link() { # NS1 IF1 ADDR6_1 ADDR4_1 NS2 IF2 ADDR6_2 ADDR4_2
	ip link add "$2" netns "$1" mtu "$CLOS_MTU" type veth peer name "$6" netns "$5" \
		mtu "$CLOS_MTU"
	ns_ex "$1" ip addr add "$3"/64 dev "$2" nodad
	ns_ex "$1" ip addr add "$4"/24 dev "$2"
	ns_ex "$5" ip addr add "$7"/64 dev "$6" nodad
	ns_ex "$5" ip addr add "$8"/24 dev "$6"
	ns_ex "$1" ip link set "$2" up
	ns_ex "$5" ip link set "$6" up
}

clos_router() { # NS
	ip netns add "$1"
	ns_ex "$1" ip link set lo up
	ns_ex "$1" sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
	ns_ex "$1" sysctl -qw net.ipv6.fib_multipath_hash_policy=1 \
		net.ipv4.fib_multipath_hash_policy=1
	# a router's addresses survive a link flap (IPv6 drops them on down by default),
	# and it stops using a nexthop whose link is down (IPv4 would go on by default)
	ns_ex "$1" sysctl -qw net.ipv6.conf.all.keep_addr_on_down=1 \
		net.ipv6.conf.default.keep_addr_on_down=1 \
		net.ipv4.conf.all.ignore_routes_with_linkdown=1 \
		net.ipv4.conf.default.ignore_routes_with_linkdown=1
}

clos_fabric() { # SPINES
	local spines=$1 i via_a="" via_b="" via4_a="" via4_b=""
	mrc_load
	# The fabric's "switch buffers": every hop of it queues in the same per-CPU backlog,
	# whose 1000 packets a real fabric's buffers dwarf; with no congestion control yet a
	# QP's bursts overflow it and drop at random.
	sysctl -qw net.core.netdev_max_backlog=10000
	ip netns add msta
	ip netns add mstb
	na ip link set lo up
	nb ip link set lo up
	clos_router mstla
	clos_router mstlb
	clos_link msta msta0 $CLOS_A6 $CLOS_A4 mstla mstla-h 2001:db8:1::ff 10.1.0.254
	clos_link mstb mstb0 $CLOS_B6 $CLOS_B4 mstlb mstlb-h 2001:db8:2::ff 10.2.0.254
	na ip -6 route add default via 2001:db8:1::ff
	nb ip -6 route add default via 2001:db8:2::ff
	na ip route add default via 10.1.0.254
	nb ip route add default via 10.2.0.254
	for i in $(seq 1 "$spines"); do
		clos_router msts$i
		clos_link mstla mstla-s$i 2001:db8:a$i::1 10.10$i.0.1 \
			msts$i msts$i-a 2001:db8:a$i::2 10.10$i.0.2
		clos_link msts$i msts$i-b 2001:db8:b$i::1 10.20$i.0.1 \
			mstlb mstlb-s$i 2001:db8:b$i::2 10.20$i.0.2
		clos_spine_routes $i
		via_a+=" nexthop via 2001:db8:a$i::2"
		via_b+=" nexthop via 2001:db8:b$i::1"
		via4_a+=" nexthop via 10.10$i.0.2"
		via4_b+=" nexthop via 10.20$i.0.1"
	done
	ns_ex mstla ip -6 route add 2001:db8:2::/64 $via_a
	ns_ex mstlb ip -6 route add 2001:db8:1::/64 $via_b
	ns_ex mstla ip route add 10.2.0.0/24 $via4_a
	ns_ex mstlb ip route add 10.1.0.0/24 $via4_b
	na rdma link add mrcsta type mrc netdev msta0
	nb rdma link add mrcstb type mrc netdev mstb0
	wait_until 20 gid_index_of mrcsta "$(gid_of_v6 $CLOS_A6)"
	wait_until 20 gid_index_of mrcstb "$(gid_of_v6 $CLOS_B6)"
	# every hop's neighbours resolved (see two_hosts), and the fabric routes
	wait_until 20 nb ping -6 -c1 -W1 $CLOS_A6
	wait_until 20 na ping -6 -c1 -W1 $CLOS_B6
	wait_until 20 nb ping -c1 -W1 $CLOS_A4
}

# Spine I's routes to the host behind leaf SIDE, or both (a link going down takes the routes
# through it along).
clos_spine_routes() { # I [a|b]
	if [ "${2:-a}" = a ]; then
		ns_ex msts$1 ip -6 route replace 2001:db8:1::/64 via 2001:db8:a$1::1
		ns_ex msts$1 ip route replace 10.1.0.0/24 via 10.10$1.0.1
	fi
	if [ "${2:-b}" = b ]; then
		ns_ex msts$1 ip -6 route replace 2001:db8:2::/64 via 2001:db8:b$1::2
		ns_ex msts$1 ip route replace 10.2.0.0/24 via 10.20$1.0.2
	fi
}

# Spine I's link to leaf SIDE (a or b) down or up again (both ends, as a cable pulled and
# put back). That leaf sees its own link go and stops using it; the other leaf cannot see it
# and keeps hashing onto spine I, which now has no way on: for the other host's EVs through
# spine I, a dead path.
clos_spine_link() { # a|b I up|down
	ns_ex mstl$1 ip link set mstl$1-s$2 "$3"
	ns_ex msts$2 ip link set msts$2-$1 "$3"
	if [ "$3" = up ]; then
		clos_spine_routes $2 $1
	fi
}
clos_spine_a_link() { clos_spine_link a "$@"; } # I up|down: host B's paths via I die

# A perftest TOOL from B to A over the fabric, one QP, IPv6 GIDs (the TCP exchange is IPv4,
# on PORT). Prints the result lines.
clos_perftest() { # TOOL PORT ARGS...
	local tool=$1 port=$2 gid_a gid_b pid
	shift 2
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $CLOS_A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $CLOS_B6)")
	server_a "$port" timeout 240 "$tool" -d mrcsta -x "$gid_a" -p "$port" --use_old_post_send \
		-F "$@"
	pid=$SERVER_PID
	nb timeout 240 "$tool" -d mrcstb -x "$gid_b" -p "$port" --use_old_post_send -F "$@" \
		$CLOS_A4 | grep -E '^ +[0-9]+ +[0-9]+ ' ||
		{ kill $pid; fail "$tool failed on the client"; }
	wait $pid || fail "$tool failed on the server"
}

# Bytes spine I received from leaf B (the B -> A direction).
clos_spine_bytes_from_b() { # I
	ns_ex msts$1 cat /sys/class/net/msts$1-b/statistics/rx_bytes
}

# Every spine's path from leaf B towards A shaped to RATE (tc tbf on leaf B's links, so each
# B -> A path is a link of that rate; the spines' own qdiscs stay free for netem). Its queue
# is RED marking ECN, as a fabric's switch queues do for RDMA: from two packets' worth on
# average a packet may be CE-marked, from six on every one is (mrc's packets are ECT(0)).
clos_shape_b_to_a() { # SPINES RATE(e.g. 24mbit)
	local i
	for i in $(seq 1 "$1"); do
		ns_ex mstlb tc qdisc add dev mstlb-s$i root handle 1: tbf rate "$2" burst 32kb \
			limit 1mb
		ns_ex mstlb tc qdisc add dev mstlb-s$i parent 1:1 handle 10: red limit 1000000 \
			min 9000 max 27000 avpkt 4200 burst 4 probability 0.2 bandwidth "$2" ecn
	done
}
