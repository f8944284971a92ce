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

# The address family of the GIDs stress and evs_b use (4 or 6); mrc_stress exchanges its QP
# numbers over TCP/IPv4 either way.
FABRIC_FAMILY=${FABRIC_FAMILY:-4}
a_addr() { if [ "$FABRIC_FAMILY" = 6 ]; then echo "$A6"; else echo "$A4"; fi; }
b_addr() { if [ "$FABRIC_FAMILY" = 6 ]; then echo "$B6"; else echo "$B4"; fi; }

# B's EV table towards A as JSON (mrcctl; more ev show arguments may follow)
evs_b() { nb mrcctl -j ev show dev mrcstb dst "$(a_addr)" "$@"; }

# Whether N (1 if not given) mrcctl monitors in B have joined their group (genetlink sockets
# with a group in /proc/net/netlink).
monitor_joined() { # [N]
	nb awk -v n="${1:-1}" '$2 == 16 && $4 != "00000000" { c++ } END { exit c < n }' \
		/proc/net/netlink
}

counter() { # DEV NAME -> value of an mrc hw counter
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"
}

counter_ge() { [ "$(counter "$1" "$2")" -ge "$3" ]; } # DEV NAME N

# Counter NAME of DEV grew by at least MIN since it read BEFORE (printed either way), or WHAT fails.
counter_grew() { # DEV NAME BEFORE MIN WHAT
	local moved=$(( $(counter "$1" "$2") - $3 ))
	echo "$1 $2: +$moved"
	[ $moved -ge "$4" ] || fail "$5: $1 $2 grew by $moved, expected $4"
}

# TOOL (ibv_rc_pingpong, ibv_ud_pingpong) between two QPs of host A's device, through its own
# GID of FAMILY (4 or 6), 50 exchanges of SIZE bytes: the packets come back over the loopback
# device, to the device that owns the address; A's counter COUNTER grows by at least MIN.
pingpong_to_itself() { # TOOL PORT SIZE FAMILY COUNTER MIN
	local tool=$1 port=$2 size=$3 family=$4 gid before
	gid=$(gid_index_of mrcsta "$(gid_of_v"$family" "$(eval echo \$A"$family")")")
	before=$(counter mrcsta "$5")
	server_a "$port" timeout 60 "$tool" -p "$port" -d mrcsta -g "$gid" -s "$size" -n 50 -c
	na timeout 60 "$tool" -p "$port" -d mrcsta -g "$gid" -s "$size" -n 50 -c $A4 ||
		fail "$tool client failed (IPv$family, to its own host)"
	wait $SERVER_PID || fail "$tool server failed (IPv$family, to its own host)"
	counter_grew mrcsta "$5" "$before" "$6" "$tool to its own host over IPv$family"
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
	# a socket LISTENing (state 0A) on the port: the previous server's connection may
	# linger in TIME_WAIT on it, and a client let go by that one found nobody listening
	wait_until 20 na grep -qE ":$(printf %04X "$port") [0-9A-F]+:[0-9A-F]+ 0A " /proc/net/tcp \
		/proc/net/tcp6
}

# mrc_stress (userspace/tools): A4 / B4 are the hosts' addresses, which lib_clos.sh sets too.
STRESS_PORT=18520

# Run mrc_stress as server on A and client on B (the client's options rule both); print the
# summary lines and keep the client's in $STRESS_OUT, the server's in $STRESS_SERVER_OUT.
# The client gets ARGS (and sends the shared ones to the server); the server's own options, those
# it does not adopt from the client, come from $STRESS_SERVER_ARGS.
stress() { # ARGS...
	local gid_a gid_b
	gid_a=$(gid_index_of mrcsta "$(gid_of_v$FABRIC_FAMILY "$(a_addr)")")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v$FABRIC_FAMILY "$(b_addr)")")
	local server_log rc=0
	server_log=$(mktemp)
	# shellcheck disable=SC2086 # the server's options, word-split
	server_a $STRESS_PORT timeout 200 mrc_stress -d mrcsta -g "$gid_a" -p $STRESS_PORT \
		${STRESS_SERVER_ARGS:-} >"$server_log" 2>&1
	STRESS_OUT=$(nb timeout 200 mrc_stress -d mrcstb -g "$gid_b" -p $STRESS_PORT "$@" $A4 2>&1) ||
		rc=$?
	echo "$STRESS_OUT"
	wait $SERVER_PID || rc=$((rc + 100))
	STRESS_SERVER_OUT=$(cat "$server_log")
	rm -f "$server_log"
	echo "$STRESS_SERVER_OUT"
	counters_of mrcsta
	counters_of mrcstb
	[ $rc -lt 100 ] || fail "mrc_stress server failed"
	[ $rc -eq 0 ] || fail "mrc_stress client failed (exit $rc)"
}

# One line with every non-zero hw counter of DEV, and the UDP drops of its netns.
counters_of() { # DEV
	local f line="$1:" ns=mst${1#mrcst}
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		[ "${f##*/}" != lifespan ] && [ "$(cat "$f")" != 0 ] && line+=" ${f##*/}=$(cat "$f")"
	done
	echo "$line"
	ip netns exec "$ns" awk '/^Udp:/ { if (!h) { split($0, n); h = 1 } else
		for (i = 2; i <= NF; i++) if (n[i] ~ /Errors$/ && $i > 0) printf "%s udp %s=%s\n", ns, n[i], $i }' \
		ns="$ns" /proc/net/snmp
}

# The client's summary says PASS, no errors, and every op type completed at least once.
stress_passed() {
	local line op
	line=$(echo "$STRESS_OUT" | grep -E '^mrc_stress: client (PASS|FAIL):')
	assert_match "$line" ' PASS: ' "client verdict"
	assert_match "$line" ' errors 0 ' "client errors"
	for op in send send_imm write write_imm read cmp_swap fetch_add; do
		assert_match "$line" "[( ]$op [1-9][0-9]* " "completed $op operations"
	done
	assert_match "$line" ' bytes_verified [1-9][0-9]{5,} ' "bytes verified"
}

no_qp_errors() {
	[ "$(counter mrcsta qp_errors)" -eq 0 ] || fail "a QP failed on host A"
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed on host B"
}

# How many objects of KIND (pd cq qp mr ctx ...) `rdma resource show` counts on DEV.
# The verbs objects of KIND a process owns on DEV, one line each: the kernel's own (the MAD
# layer's PD, CQ, MR and GSI QP, shown with "comm [ib_core]") are not counted.
user_resources() { # DEV KIND
	local sel="dev $1"
	[ "$2" = qp ] && sel="link $1/1"
	# shellcheck disable=SC2086 # the selector's words
	rdma resource show "$2" $sel 2>/dev/null | grep -v 'comm \[' || true
}
no_resources() { # DEV
	local kind
	for kind in pd cq qp mr ctx srq; do
		[ -z "$(user_resources "$1" $kind)" ] || return 1
	done
}
