#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# UCX over mrc, unchanged, from Debian's packages: ucx_info sees the device and its verbs
# transports (rc_verbs, ud_verbs), and ucx_perftest runs UCP's tag-matching bandwidth and latency
# and its put bandwidth between two hosts. UCX is held to mrc's transports (no shared memory, no
# TCP), and mrc's counters prove the bytes went through mrc. UCX's UD transport alone carries a
# tag latency run over an IPv4-mapped GID and over an IPv6 one: it reads the packet's network
# type from the completion's sl to find the addresses in the GRH (Documentation/mrc.rst).
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 [ mrcstb ] (netns mstb)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

UCX_PORT=13337

# Every run: the named host's mrc port only, no warnings promoted to noise.
ucx_env() { # DEV TLS [GID_INDEX]
	echo "UCX_NET_DEVICES=$1:1 UCX_TLS=$2 UCX_WARN_UNUSED_ENV_VARS=n${3:+ UCX_IB_GID_INDEX=$3}"
}

ucx_info_sees_mrc() {
	two_hosts
	local out
	out=$(na env $(ucx_env mrcsta rc_verbs,ud_verbs) ucx_info -d 2>&1) ||
		{ echo "$out" | tail -5; fail "ucx_info -d failed"; }
	echo "$out" | grep -E "Transport:|Device:" | sort -u
	assert_match "$out" "Device: mrcsta:1" "ucx_info lists mrcsta"
	echo "$out" | grep -A2 "Transport: rc_verbs" | grep -q "Device: mrcsta:1" ||
		fail "ucx_info shows no rc_verbs on mrcsta"
	echo "$out" | grep -A2 "Transport: ud_verbs" | grep -q "Device: mrcsta:1" ||
		fail "ucx_info shows no ud_verbs on mrcsta"
}

# ucx_perftest's server on A, its client on B (the client names the test); the client's
# "Final:" line is the result, and B's mrc counter COUNTER grew by at least MIN bytes.
ucx_perf() { # TLS GID_FAMILY COUNTER MIN PERFTEST-ARGS...
	local tls=$1 family=$2 cnt=$3 min=$4 gid_a="" gid_b="" out before
	shift 4
	if [ "$family" = 6 ]; then
		gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
		gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $B6)")
	fi
	before=$(counter mrcstb "$cnt")
	server_a $UCX_PORT env $(ucx_env mrcsta "$tls" $gid_a) \
		timeout 120 ucx_perftest -p $UCX_PORT
	out=$(nb env $(ucx_env mrcstb "$tls" $gid_b) \
		timeout 120 ucx_perftest -p $UCX_PORT "$@" $A4 2>&1) ||
		{ ucx_diag "$out"; fail "ucx_perftest $* ($tls) failed on the client"; }
	wait $SERVER_PID || fail "ucx_perftest $* ($tls) failed on the server"
	echo "$out" | grep -E "^Final:" || { echo "$out" | tail -8; fail "no Final: line"; }
	counter_grew mrcstb "$cnt" "$before" "$min" "ucx_perftest $*"
}

RC_TLS=rc_verbs,ud_verbs

# What a failed run leaves to go by: UCX's messages (not its backtrace) and both counters.
ucx_diag() { # OUTPUT
	echo "$1" | grep -vE '^ *[0-9]+ +/|backtrace' | tail -n 20
	counters_of mrcsta
	counters_of mrcstb
}

tag_bw_rc() { two_hosts; ucx_perf $RC_TLS 4 tx_bytes $((500 * 65536)) -t tag_bw -s 65536 -n 500; }
tag_lat_rc() { two_hosts; ucx_perf $RC_TLS 4 tx_bytes $((1000 * 64)) -t tag_lat -s 64 -n 1000; }
put_bw_rc() { two_hosts; ucx_perf $RC_TLS 4 tx_bytes $((500 * 65536)) -t ucp_put_bw -s 65536 -n 500; }
# 16 MiB messages: UCX's rendezvous, RDMA READs of the sender's buffer by the receiver
tag_bw_rc_rndv() {
	two_hosts
	ucx_perf $RC_TLS 4 tx_bytes $((10 * 16777216)) -t tag_bw -s 16777216 -n 10
}
tag_lat_ud_ipv4() { two_hosts; ucx_perf ud_verbs 4 tx_bytes $((500 * 64)) -t tag_lat -s 64 -n 500; }
tag_lat_ud_ipv6() { two_hosts; ucx_perf ud_verbs 6 tx_bytes $((500 * 64)) -t tag_lat -s 64 -n 500; }

ktap_run \
	ucx_info_sees_mrc \
	tag_bw_rc \
	tag_lat_rc \
	tag_bw_rc_rndv \
	put_bw_rc \
	tag_lat_ud_ipv4 \
	tag_lat_ud_ipv6
