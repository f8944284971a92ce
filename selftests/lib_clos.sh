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
# 10.1.0.1 and 10.2.0.1, spine links 10.10<i>.0.0/24 and 10.20<i>.0.0/24); the verbs tools
# exchange QP numbers over a management link off the fabric (clos_mgmt_link). Host devices
# keep the names of lib_fabric.sh (msta0/mstb0, mrcsta/mrcstb) so its helpers (na, nb,
# server_a, counter) apply.
#
# CLOS_HOSTS=4 adds host C (netns mstc, mrcstc) behind leaf A and host D (mstd, mrcstd) behind
# leaf B. Host H's subnet number N is 1 for A, 2 for B, 3 for C, 4 for D: its address is
# 2001:db8:N::1 and 10.N.0.1, its leaf's 2001:db8:N::ff and 10.N.0.254.

CLOS_A6=2001:db8:1::1
CLOS_B6=2001:db8:2::1
CLOS_A4=10.1.0.1
CLOS_B4=10.2.0.1
# lib_fabric.sh's helpers (stress, ...) address the hosts by these
A6=$CLOS_A6 B6=$CLOS_B6 A4=$CLOS_A4 B4=$CLOS_B4

ns_ex() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

CLOS_HOSTS=${CLOS_HOSTS:-2}
clos_hosts() { if [ "$CLOS_HOSTS" = 4 ]; then echo a b c d; else echo a b; fi; }
clos_hosts_behind() { # a|b -> the hosts behind that side's leaves
	case $1:$CLOS_HOSTS in
	a:4) echo a c ;;
	b:4) echo b d ;;
	*) echo "$1" ;;
	esac
}
clos_side_of() { case $1 in a | c) echo a ;; *) echo b ;; esac; } # H
clos_host_n() { case $1 in a) echo 1 ;; b) echo 2 ;; c) echo 3 ;; d) echo 4 ;; esac; } # H
clos_addr6() { echo "2001:db8:$(clos_host_n "$1")::1"; } # H
clos_addr4() { echo "10.$(clos_host_n "$1").0.1"; } # H
# Leaf LEAF's interface towards host H: -h for A and B (as ever), -h<H> for C and D.
clos_host_if() { # LEAF H
	case $2 in a | b) echo "$1-h" ;; *) echo "$1-h$2" ;; esac
}

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
	clos_link_neigh "$1" "$2"
	clos_link_neigh "$5" "$6"
	ns_ex "$1" ip link set "$2" up
	ns_ex "$5" ip link set "$6" up
}

# A link that comes back resolves its neighbours within a tenth of a second: a first
# solicitation sent as the carrier returns may be lost, and Linux's next would come a second
# later (retrans_time), with what queued behind it held that long; the path would stay dead
# a second after the link is whole, which a switch's link-up does not cost. Thirty tries
# keep Linux's patience of three seconds before a neighbour counts as gone: an answer that
# waits behind a shaped link's queue (multipath_rate.sh) must not fail it.
clos_link_neigh() { # NS IF
	local fam args=()
	for fam in ipv6 ipv4; do
		args+=(net.$fam.neigh."$2".retrans_time_ms=100 net.$fam.neigh."$2".ucast_solicit=30
			net.$fam.neigh."$2".mcast_solicit=30)
	done
	ns_ex "$1" sysctl -qw "${args[@]}"
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

CLOS_PLANE_SPINES=	# spines per plane
clos_fabric() { # SPINES
	local spines=$1 i h
	CLOS_PLANE_SPINES=$spines
	mrc_load
	# The fabric's "switch buffers": every hop of it queues in the same per-CPU backlog,
	# whose 1000 packets a real fabric's buffers dwarf; with no congestion control yet a
	# QP's bursts overflow it and drop at random.
	sysctl -qw net.core.netdev_max_backlog=10000
	clos_router mstla
	clos_router mstlb
	for h in $(clos_hosts); do clos_host "$h"; done
	clos_mgmt_link
	for i in $(seq 1 "$spines"); do clos_spine $i; done
	clos_leaf_routes a 1
	clos_leaf_routes b 1
	for h in $(clos_hosts); do ns_ex mst$h rdma link add mrcst$h type mrc netdev mst${h}0; done
	for h in $(clos_hosts); do
		wait_until 20 gid_index_of mrcst$h "$(gid_of_v6 "$(clos_addr6 $h)")"
	done
	# every hop's neighbours resolved (see two_hosts), and the fabric routes
	wait_until 20 nb ping -6 -c1 -W1 $CLOS_A6
	wait_until 20 na ping -6 -c1 -W1 $CLOS_B6
	wait_until 20 nb ping -c1 -W1 $CLOS_A4
	for h in $(clos_hosts | cut -d' ' -f3-); do
		wait_until 20 ns_ex mst$h ping -6 -c1 -W1 $CLOS_A6
		wait_until 20 ns_ex mst$h ping -c1 -W1 $CLOS_A4
		wait_until 20 na ping -6 -c1 -W1 "$(clos_addr6 $h)"
	done
}

# Host H's namespace, its link to its leaf and its default routes through it.
clos_host() { # H
	local h=$1 n leaf
	n=$(clos_host_n "$h")
	leaf=mstl$(clos_side_of "$h")
	ip netns add mst$h
	ns_ex mst$h ip link set lo up
	clos_link mst$h mst${h}0 2001:db8:$n::1 10.$n.0.1 $leaf "$(clos_host_if $leaf "$h")" \
		2001:db8:$n::ff 10.$n.0.254
	ns_ex mst$h ip -6 route add default via 2001:db8:$n::ff
	ns_ex mst$h ip route add default via 10.$n.0.254
}

# Hosts A and B's management link: a veth straight between them, off the fabric, that the
# verbs tools exchange their QP numbers over (TCP), as a cluster's out-of-band network
# carries its control traffic. Over the fabric that exchange was one ECMP flow: a failure
# that caught its spine held the tools' last handshake for seconds of TCP retransmits after
# the transfer, which the rate tests took for seconds of the transfer. IPv4 only: no IPv6
# address of it can become a GID or a route of the RDMA traffic.
CLOS_MGMT_A4=10.254.0.1
CLOS_MGMT_B4=10.254.0.2
clos_mgmt_link() {
	ip link add mgmt0 netns msta type veth peer name mgmt0 netns mstb
	ns_ex msta sysctl -qw net.ipv6.conf.mgmt0.disable_ipv6=1
	ns_ex mstb sysctl -qw net.ipv6.conf.mgmt0.disable_ipv6=1
	ns_ex msta ip addr add $CLOS_MGMT_A4/30 dev mgmt0
	ns_ex mstb ip addr add $CLOS_MGMT_B4/30 dev mgmt0
	ns_ex msta ip link set mgmt0 up
	ns_ex mstb ip link set mgmt0 up
}

# Spine I, linked to its leaf on either side (clos_leaf), with its routes.
clos_spine() { # I
	local la lb
	la=$(clos_leaf a "$1")
	lb=$(clos_leaf b "$1")
	clos_router msts$1
	clos_link $la $la-s$1 2001:db8:a$1::1 10.10$1.0.1 msts$1 msts$1-a 2001:db8:a$1::2 10.10$1.0.2
	clos_link msts$1 msts$1-b 2001:db8:b$1::1 10.20$1.0.1 $lb $lb-s$1 2001:db8:b$1::2 10.20$1.0.2
	clos_spine_routes $1
}

# Spine I's routes to the host behind leaf SIDE, or both, and on the SRv6 fabric that leaf's
# route to spine I's SIDs (a link going down takes the routes through it along).
clos_spine_routes() { # I [a|b]
	local h n
	if [ "${2:-a}" = a ]; then
		for h in $(clos_hosts_behind a); do
			n=$(clos_host_n $h)
			ns_ex msts$1 ip -6 route replace 2001:db8:$n::/64 via 2001:db8:a$1::1
			ns_ex msts$1 ip route replace 10.$n.0.0/24 via 10.10$1.0.1
		done
		[ -z "$CLOS_SRV6" ] ||
			ns_ex "$(clos_leaf a $1)" ip -6 route replace $CLOS_SID$1::/64 via 2001:db8:a$1::2
	fi
	if [ "${2:-b}" = b ]; then
		for h in $(clos_hosts_behind b); do
			n=$(clos_host_n $h)
			ns_ex msts$1 ip -6 route replace 2001:db8:$n::/64 via 2001:db8:b$1::2
			ns_ex msts$1 ip route replace 10.$n.0.0/24 via 10.20$1.0.2
		done
		[ -z "$CLOS_SRV6" ] ||
			ns_ex "$(clos_leaf b $1)" ip -6 route replace $CLOS_SID$1::/64 via 2001:db8:b$1::1
	fi
}

# Two planes: a second leaf-spine fabric of the same shape (leaves mstlc and mstld, spines
# msts<SPINES+1> ... msts<2 SPINES>), joined to each host by a second netdev that its mrc
# device sprays over as plane 2 (mrcctl plane add):
#
#                    [ leaf A  mstla ] == spines 1 ... N == [ leaf B  mstlb ]
#   [ host A ]--msta0                                                 mstb0--[ host B ]
#   2001:db8:1::1  --msta1 [ leaf A2 mstlc ] == spines N+1 ... 2N == [ leaf B2 mstld ] mstb1--
#
# A host keeps its one address (on its plane-1 netdev), which both planes route to it, so a
# QP's packets reach the peer over either. What mrc sends on plane 2 leaves by the plane-2
# netdev (the route lookup names it as output interface), and the host's rule for that
# output interface routes it over plane 2 (table 102). Plane 2 carries IPv6 only: tests over
# it use the hosts' IPv6 GIDs.
clos_two_planes() { # SPINES (per plane)
	local spines=$1 i h
	clos_fabric "$spines"
	clos_router mstlc
	clos_router mstld
	for h in $(clos_hosts); do clos_host_plane2 "$h"; done
	for i in $(seq 1 "$spines"); do clos_spine $((spines + i)); done
	clos_leaf_routes a 2
	clos_leaf_routes b 2
	for h in $(clos_hosts); do
		ns_ex mst$h mrcctl plane add dev mrcst$h id 2 netdev mst${h}1
		# the host's plane-2 neighbour resolved
		wait_until 20 ns_ex mst$h ping -6 -c1 -W1 "2001:db8:1$(clos_host_n $h)::ff"
	done
}

# Host H's link to its plane-2 leaf (2001:db8:1N::/64, 10.3N.0.0/24), the leaf's route to the
# host's address over it, and the host's rule sending what leaves by that netdev over plane 2.
clos_host_plane2() { # H
	local h=$1 n leaf
	n=$(clos_host_n "$h")
	leaf=mstlc
	[ "$(clos_side_of "$h")" = a ] || leaf=mstld
	clos_link mst$h mst${h}1 2001:db8:1$n::1 10.3$n.0.1 $leaf "$(clos_host_if $leaf "$h")" \
		2001:db8:1$n::ff 10.3$n.0.254
	ns_ex $leaf ip -6 route add 2001:db8:$n::/64 via 2001:db8:1$n::1
	ns_ex mst$h ip -6 rule add oif mst${h}1 lookup 102
	ns_ex mst$h ip -6 route add default via 2001:db8:1$n::ff dev mst${h}1 table 102
}

# The SRv6 fabric: the same namespaces, and every spine an SRv6 node. Spine i owns the SIDs
# fc00:e<i>::/64 and runs the kernel's seg6local End on them (the VM's 6.1 kernel and
# iproute2 have no uSID "next-csid" flavour); both leaves route that prefix to it. A host
# chooses the spine of every packet: its EV's segment is a SID of that spine, the peer's
# address the SRH's last segment, and the hosts accept SRH packets (seg6_enabled).
#
#    host B --SRH [A, fc00:e<i>::<j>]--> leaf B --> spine i: End --> leaf A --> host A
#
# Plain packets (ACKs answer on the request's UDP port, the tools' TCP) still cross the
# fabric by the leaves' ECMP.
CLOS_SRV6=
CLOS_SID=fc00:e
clos_srv6_fabric() { # SPINES
	local i
	CLOS_SRV6=1
	clos_fabric "$1"
	clos_srv6_hosts 0
	for i in $(seq 1 "$1"); do clos_srv6_spine $i; done
}

# Both hosts accept SRH packets on their netdevs <ns>N, for each N given.
clos_srv6_hosts() { # N...
	local ns n
	for ns in $(clos_hosts | sed 's/\([a-d]\)/mst\1/g'); do
		ns_ex $ns sysctl -qw net.ipv6.conf.all.seg6_enabled=1
		for n in "$@"; do ns_ex $ns sysctl -qw net.ipv6.conf.$ns$n.seg6_enabled=1; done
	done
}

# Spine I runs End on its SIDs, which both its leaves route to it. The SIDs' route needs a
# device that is up and not the loopback (IPv6 makes a route over lo that is not local a
# reject route): a dummy, which no link test takes down.
clos_srv6_spine() { # I
	ns_ex msts$1 ip link add msts$1-sid type dummy
	ns_ex msts$1 ip link set msts$1-sid up
	ns_ex msts$1 ip -6 route add $CLOS_SID$1::/64 encap seg6local action End dev msts$1-sid
	clos_spine_routes $1
}

# Both planes SRv6 (clos_two_planes, every spine as in clos_srv6_fabric), both hosts
# spraying over 256 explicit SRv6 EVs: fc00:e<i>::<j> of the 2 x SPINES spines in turn, each
# EV bound to its spine's plane.
#
#    host B --plane 2, SRH [A, fc00:e6::<j>]--> leaf B2 --> spine 6: End --> leaf A2 --> A
clos_srv6_two_planes() { # SPINES (per plane)
	local i
	CLOS_SRV6=1
	FABRIC_FAMILY=6
	clos_two_planes "$1"
	clos_srv6_hosts 0 1
	for i in $(seq 1 $((2 * $1))); do clos_srv6_spine $i; done
	clos_srv6_plane_profile msta mrcsta "$1"
	clos_srv6_plane_profile mstb mrcstb "$1"
}

clos_srv6_plane_profile() { # NS DEV SPINES
	local ns=$1 dev=$2 spines=$3 s j evs=()
	for j in $(seq 0 $((256 / (2 * spines) - 1))); do
		for s in $(seq 1 $((2 * spines))); do
			evs+=(ev "$CLOS_SID$s::$j" plane $(( (s - 1) / spines + 1 )))
		done
	done
	ns_ex "$ns" mrcctl ev-fmt-profile add dev "$dev" id 1 mode srv6
	ns_ex "$ns" mrcctl ev-fmt-profile set dev "$dev" id 1 state online
	ns_ex "$ns" mrcctl ev-profile add dev "$dev" id 1 fmt 1 mode exp "${evs[@]}"
	ns_ex "$ns" mrcctl ev-profile set dev "$dev" id 1 state online
	ns_ex "$ns" mrcctl dev set dev "$dev" default-profile 1
}

# Device DEV in netns NS sprays over SPINES x 64 SRv6 EVs, generated: fc00:e<i>::<j>
# with the spine i varying fastest, so a round robin walks the spines in turn. Its new QPs
# use them (format profile and EV profile 1, the default).
clos_srv6_profile() { # NS DEV SPINES [POLICY]
	local ns=$1 dev=$2 spines=$3
	ns_ex "$ns" mrcctl ev-fmt-profile add dev "$dev" id 1 mode srv6 \
		width 32 width 32 width 32 width 32
	ns_ex "$ns" mrcctl ev-fmt-profile set dev "$dev" id 1 state online
	ns_ex "$ns" mrcctl ev-profile add dev "$dev" id 1 fmt 1 mode gen count $((spines * 64)) \
		policy "${4:-round-robin}" \
		field width 32 init 0xfc0000e0 min 1 max "$spines" mask 0xf \
		field width 32 field width 32 field width 32 max 63 mask 0xff
	ns_ex "$ns" mrcctl ev-profile set dev "$dev" id 1 state online
	ns_ex "$ns" mrcctl dev set dev "$dev" default-profile 1
}

# The SRv6 fabric of SPINES spines, both hosts spraying over its EVs (with POLICY), and the
# tools on the hosts' IPv6 GIDs, which SRv6 EVs need.
clos_srv6_world() { # SPINES [POLICY]
	FABRIC_FAMILY=6
	clos_srv6_fabric "$1"
	clos_srv6_profile msta mrcsta "$1" "${2:-}"
	clos_srv6_profile mstb mrcstb "$1" "${2:-}"
}

# Spine I's link to leaf SIDE (a or b) down or up again (both ends, as a cable pulled and
# put back). That leaf sees its own link go and stops using it; the other leaf cannot see it
# and keeps hashing onto spine I, which now has no way on: for the other host's EVs through
# spine I, a dead path.
clos_spine_link() { # a|b I up|down
	local leaf
	leaf=$(clos_leaf "$1" "$2")
	ns_ex $leaf ip link set $leaf-s$2 "$3"
	ns_ex msts$2 ip link set msts$2-$1 "$3"
	if [ "$3" = up ]; then
		clos_spine_routes $2 $1
		clos_leaf_routes $1 $(( ($2 - 1) / CLOS_PLANE_SPINES + 1 ))
	fi
}

# Leaf SIDE of PLANE: its ECMP routes towards the other host over the plane's spines whose
# link to it is up. A link going down takes its nexthop out of the route, the last one the
# whole route; a link coming back puts them back, as a fabric's routing protocol would.
# IPv4 is routed on plane 1 only.
clos_leaf_routes() { # a|b PLANE
	local side=$1 plane=$2 leaf i via="" via4="" gw gw4 other=a h n
	leaf=$(clos_leaf "$side" $(( (plane - 1) * CLOS_PLANE_SPINES + 1 )))
	for i in $(seq $(( (plane - 1) * CLOS_PLANE_SPINES + 1 )) $(( plane * CLOS_PLANE_SPINES ))); do
		ns_ex $leaf ip link show $leaf-s$i | grep -q 'state UP' || continue
		gw=2001:db8:b$i::1 gw4=10.20$i.0.1
		[ "$side" = b ] || gw=2001:db8:a$i::2 gw4=10.10$i.0.2
		via+=" nexthop via $gw"
		via4+=" nexthop via $gw4"
	done
	[ -n "$via" ] || return 0
	[ "$side" = b ] || other=b
	for h in $(clos_hosts_behind $other); do
		n=$(clos_host_n $h)
		ns_ex $leaf ip -6 route replace 2001:db8:$n::/64 $via
		[ "$plane" != 1 ] || ns_ex $leaf ip route replace 10.$n.0.0/24 $via4
	done
}

# The leaf on SIDE (a or b) that spine I joins: plane 2's spines follow plane 1's.
clos_leaf() { # a|b I
	if [ "$2" -le "$CLOS_PLANE_SPINES" ]; then
		echo mstl$1
	elif [ "$1" = a ]; then
		echo mstlc
	else
		echo mstld
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
	server_a "$port" timeout 240 "$tool" -d mrcsta -x "$gid_a" -p "$port" -F "$@"
	pid=$SERVER_PID
	nb timeout 240 "$tool" -d mrcstb -x "$gid_b" -p "$port" -F "$@" \
		$CLOS_MGMT_A4 | grep -E '^ +[0-9]+ +[0-9]+ ' ||
		{ kill $pid; fail "$tool failed on the client"; }
	wait $pid || fail "$tool failed on the server"
}

# The same with the roles swapped: the server on host B, the client on host A (for
# ib_read_bw, A reads B's memory: the data crosses the fabric from B to A).
clos_perftest_a_client() { # TOOL PORT ARGS...
	local tool=$1 port=$2 gid_a gid_b pid
	shift 2
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $CLOS_A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $CLOS_B6)")
	nb timeout 240 "$tool" -d mrcstb -x "$gid_b" -p "$port" -F "$@" &
	pid=$!
	wait_until 20 nb grep -qE ":$(printf %04X "$port") [0-9A-F]+:[0-9A-F]+ 0A " /proc/net/tcp \
		/proc/net/tcp6
	na timeout 240 "$tool" -d mrcsta -x "$gid_a" -p "$port" -F "$@" \
		$CLOS_MGMT_B4 | grep -E '^ +[0-9]+ +[0-9]+ ' ||
		{ kill $pid; fail "$tool failed on the client"; }
	wait $pid || fail "$tool failed on the server"
}

# Bytes spine I received from leaf B (the B -> A direction).
clos_spine_bytes_from_b() { # I
	ns_ex msts$1 cat /sys/class/net/msts$1-b/statistics/rx_bytes
}

# One QP's ib_write_bw from B to A (3000 x 64 KiB) and how it spread: B's path set towards A
# had NR_EVS EVs, each within 25% of its even share of the packets, and the whole transfer
# crossed the spines. Leaves B's EV table of the run in CLOS_EVS_JSON, the bytes spine i
# carried from B in CLOS_MOVED[i] and a spine's fair share of them in CLOS_FAIR.
CLOS_EVS_JSON=/tmp/clos-evs.json
clos_sprayed_transfer() { # SPINES NR_EVS
	local spines=$1 nr_evs=$2 i bw before=() total=0
	for i in $(seq 1 "$spines"); do before[i]=$(clos_spine_bytes_from_b $i); done
	(clos_perftest ib_write_bw 18515 -s 65536 -n 3000) &
	bw=$!
	# while it runs, its path set (IPv6: the tools' GIDs) shows what each EV carried
	wait_until 60 eval '[ "$(nb mrcctl -j ev show dev mrcstb | jq length)" -gt 0 ]'
	sleep 3
	nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 >$CLOS_EVS_JSON
	wait $bw || fail "ib_write_bw failed"
	jq -r '[.[].packets] | "\(length) \(min) \(max) \(add / length)"' $CLOS_EVS_JSON | {
		read -r n min max mean
		echo "per-EV packets: $n EVs, min $min max $max mean $mean"
		[ "$n" -eq "$nr_evs" ] || fail "$n EVs"
		awk -v a="$min" -v b="$max" -v m="$mean" 'BEGIN { exit !(a >= 0.75 * m && b <= 1.25 * m) }' ||
			fail "EVs not within 25% of their even share"
	}
	CLOS_MOVED=()
	for i in $(seq 1 "$spines"); do
		CLOS_MOVED[i]=$(( $(clos_spine_bytes_from_b $i) - before[i] ))
		total=$((total + CLOS_MOVED[i]))
	done
	CLOS_FAIR=$((total / spines))
	echo "bytes per spine: ${CLOS_MOVED[*]:1} (fair share $CLOS_FAIR)"
	[ $total -ge $((3000 * 65536)) ] || fail "only $total bytes crossed the spines"
}

# After clos_sprayed_transfer, where the sender chose every packet's spine: each of SPINES
# spines carried its fair share, within 25%.
clos_spines_even() { # SPINES
	local i
	for i in $(seq 1 "$1"); do
		[ $((CLOS_MOVED[i] * 4)) -ge $((CLOS_FAIR * 3)) ] &&
			[ $((CLOS_MOVED[i] * 4)) -le $((CLOS_FAIR * 5)) ] ||
			fail "spine $i carried ${CLOS_MOVED[i]} bytes (fair share $CLOS_FAIR)"
	done
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
