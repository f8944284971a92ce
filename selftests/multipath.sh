#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Multipath over a leaf-spine fabric whose leaves hash the UDP ports (ECMP): one QP's packets,
# sprayed over the device's EVs (UDP source ports), cross every spine.
#
#   [ host A ] -- [ leaf A ] == 4 spines == [ leaf B ] -- [ host B ]    (lib_clos.sh)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"

SPINES=4

# ib_write_bw from B to A over the fabric, one QP, IPv6 GIDs (the TCP exchange is IPv4).
write_bw_over_fabric() { # ARGS...
	local gid_a gid_b
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $CLOS_A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $CLOS_B6)")
	server_a 18515 timeout 240 ib_write_bw -d mrcsta -x "$gid_a" --use_old_post_send -F "$@"
	nb timeout 240 ib_write_bw -d mrcstb -x "$gid_b" --use_old_post_send -F "$@" $CLOS_A4 |
		grep -E '^ +[0-9]+ +[0-9]+ ' || { kill $SERVER_PID; fail "ib_write_bw failed on the client"; }
	wait $SERVER_PID || fail "ib_write_bw failed on the server"
}

one_qp_uses_every_spine() {
	clos_fabric $SPINES
	local i before=() moved=() total=0 fair
	for i in $(seq 1 $SPINES); do before[i]=$(clos_spine_bytes_from_b $i); done
	write_bw_over_fabric -s 65536 -n 300
	for i in $(seq 1 $SPINES); do
		moved[i]=$(( $(clos_spine_bytes_from_b $i) - before[i] ))
		total=$((total + moved[i]))
	done
	fair=$((total / SPINES))
	echo "bytes per spine: ${moved[*]:1} (fair share $fair)"
	[ $total -ge $((300 * 65536)) ] || fail "only $total bytes crossed the spines"
	# The leaf's hash of 256 ports over 4 links is a random draw (its seed is per boot):
	# each spine carries from half to twice its fair share; one carrying none would
	# mean the QP did not spray.
	for i in $(seq 1 $SPINES); do
		[ "${moved[i]}" -ge $((fair / 2)) ] || fail "spine $i carried ${moved[i]} bytes"
		[ "${moved[i]}" -le $((fair * 2)) ] || fail "spine $i carried ${moved[i]} bytes"
	done
	[ "$(counter mrcstb qp_errors)" -eq 0 ] || fail "a QP failed"
}

ktap_run \
	one_qp_uses_every_spine
