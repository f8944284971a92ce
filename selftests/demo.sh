#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What mrc does today, shown in the VM: two hosts in two network namespaces,
# an mrc RDMA device on each, standard verbs tools moving data between them
# reliably over a wire that loses, reorders and duplicates packets; then one
# QP sprayed over the 8 spines of a two-plane leaf-spine fabric while a spine
# link dies and comes back.
#
#   netns msta [ mrcsta ] msta0 10.11.0.1 <-- veth (netem) --> mstb0 10.11.0.2 [ mrcstb ] netns mstb
set -e
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

say() { printf '\n=== %s\n' "$*"; }
# the server side's own report would repeat the client's: keep it quiet
QUIET=(sh -c 'exec "$0" "$@" >/dev/null 2>&1')
run() { echo "\$ $*"; "$@"; }
counters() { # DEV
	local c out=""
	for c in tx_packets rx_packets retransmits duplicates out_of_order acks_sent naks_sent; do
		out+="$c=$(counter "$1" $c) "
	done
	echo "  $1: $out"
}

cleanup_world
say "two hosts (network namespaces msta, mstb), one mrc device each"
two_hosts
run rdma link show mrcsta/1
run rdma link show mrcstb/1
gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
echo "GID index of $A4 on mrcsta: $gid_a, of $B4 on mrcstb: $gid_b"

say "ibv_devinfo sees an RDMA device (rdma-core provider libmrc)"
ibv_devinfo -d mrcsta | grep -E 'hca_id|transport|port:|state|active_mtu|link_layer'

say "ibv_rc_pingpong, 64 KiB messages, data checked"
server_a 18515 "${QUIET[@]}" ibv_rc_pingpong -d mrcsta -g "$gid_a" -s 65536 -n 200 -c
nb ibv_rc_pingpong -d mrcstb -g "$gid_b" -s 65536 -n 200 -c $A4
wait $SERVER_PID

say "ib_write_bw, 64 KiB, clean wire"
server_a 18515 "${QUIET[@]}" ib_write_bw -d mrcsta -x "$gid_a" -F -s 65536 -n 1000
nb ib_write_bw -d mrcstb -x "$gid_b" -F -s 65536 -n 1000 $A4 | grep -A1 '#bytes'
wait $SERVER_PID
counters mrcsta
counters mrcstb

say "the same over a bad wire: netem loss 1%, reorder 25%, duplicate 1%, delay 1ms (both ways)"
na tc qdisc add dev msta0 root netem loss 1% reorder 25% duplicate 1% delay 1ms
nb tc qdisc add dev mstb0 root netem loss 1% reorder 25% duplicate 1% delay 1ms
server_a 18515 "${QUIET[@]}" ib_write_bw -d mrcsta -x "$gid_a" -F -s 65536 -n 300
nb ib_write_bw -d mrcstb -x "$gid_b" -F -s 65536 -n 300 $A4 | grep -A1 '#bytes'
wait $SERVER_PID
echo "selective retransmission repaired the losses; the application saw every byte, in order:"
counters mrcsta
counters mrcstb

say "every RC operation both ways, every byte checked (mrc_stress), still over the bad wire"
server_a 18520 "${QUIET[@]}" mrc_stress -d mrcsta -g "$gid_a" -p 18520
nb mrc_stress -d mrcstb -g "$gid_b" -p 18520 --seconds 10 --qps 2 $A4 | tail -n 1
wait $SERVER_PID

say "multipath: one QP sprayed over two planes, 4 spines each: 8 disjoint paths, 256 EVs"
say "(EV i on plane 1 + i mod 2); spine 2 (plane 1) loses its link to leaf A at 8 s, back at 16 s"
cleanup_world
(
	source "$(dirname "$0")/lib_clos.sh"
	#                    [ leaf A  mstla ] == spines 1 ... 4 == [ leaf B  mstlb ]
	#   [ host A ]--msta0                                                 mstb0--[ host B ]
	#             --msta1 [ leaf A2 mstlc ] == spines 5 ... 8 == [ leaf B2 mstld ] mstb1--
	clos_two_planes 4
	echo "\$ mrcctl plane show dev mrcsta        (in host A's namespace)"
	na mrcctl plane show dev mrcsta
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $CLOS_A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $CLOS_B6)")
	server_a 18515 "${QUIET[@]}" timeout 90 ib_write_bw -d mrcsta -x "$gid_a" \
		-F -s 65536 -D 1 --run_infinitely
	nb timeout 90 ib_write_bw -d mrcstb -x "$gid_b" -F -s 65536 \
		-D 1 --run_infinitely $CLOS_A4 >/dev/null 2>&1 &
	client=$!
	declare -a last
	for i in $(seq 1 8); do last[i]=$(clos_spine_bytes_from_b $i); done
	echo "  MB/s from B through each spine; the total; B's EVs marked ASSUMED_BAD, recovered"
	echo "  second   spine 1      2      3      4      5      6      7      8    total  bad  good again"
	for t in $(seq 1 22); do
		sleep 1
		[ $t -ne 8 ] || clos_spine_a_link 2 down
		[ $t -ne 12 ] || nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 >/tmp/demo-evs-down.json
		[ $t -ne 16 ] || clos_spine_a_link 2 up
		line=$(printf '  %4d    ' $t)
		total=0
		for i in $(seq 1 8); do
			now=$(clos_spine_bytes_from_b $i)
			d=$((now - last[i]))
			last[i]=$now
			total=$((total + d))
			line+=$(printf '%7.2f' "$(echo "$d" | awk '{ print $1 / 1e6 }')")
		done
		line+=$(printf '  %7.2f' "$(echo "$total" | awk '{ print $1 / 1e6 }')")
		line+=$(printf '  %4s  %4s' "$(counter mrcstb ev_marked_bad)" \
			"$(counter mrcstb ev_recovered)")
		echo "$line"
		echo "$t $total" >>/tmp/demo-rate
	done
	# (each second's readings take their own time under emulation: the flow ends here)
	kill $client $SERVER_PID 2>/dev/null || true
	wait $client || true
	wait $SERVER_PID || true
	awk '$1 >= 3 && $1 <= 7 { a += $2; na++ } $1 >= 10 && $1 <= 15 { b += $2; nb++ }
	     $1 >= 18 { c += $2; nc++ }
	     END { printf "  throughput: %.2f MB/s before, %.2f with spine 2 out (%.0f%%), %.2f after\n",
			  a / na / 1e6, b / nb / 1e6, 100 * b / nb / (a / na), c / nc / 1e6 }' /tmp/demo-rate
	echo "  (unshaped links: the VM's CPU bounds the rate, not the paths; make bench shapes them)"
	rm -f /tmp/demo-rate
	echo "  packets B sent on each EV, EVs 0-255, 16 a row (even: plane 1, odd: plane 2);"
	echo "  * = ASSUMED_BAD at 12 s, while spine 2 was out:"
	nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 |
		jq -r --slurpfile down /tmp/demo-evs-down.json '
			($down[0] | map(select(.state == "assumed-bad") | .index)) as $bad |
			[.[] | "\(.packets)\(if (.index as $i | $bad | any(.[]; . == $i)) then "*" else " " end)"]
			| _nwise(16) | " " + (map("      " + . | .[-6:]) | join(""))'
	nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 | jq -r 'group_by(.plane)[] |
		"  plane \(.[0].plane): \(length) EVs, \(map(.packets) | add) packets"'
	counters mrcstb
	echo "  probes: sent $(counter mrcstb probes_sent), answered by A $(counter mrcsta probes_answered)"
	rm -f /tmp/demo-evs-down.json
)

say "tear down"
cleanup_world
run rmmod mrc
echo
echo "demo: done"
