#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The GID table of an mrc port is RoCEv2-style and mirrors the netdev's
# addresses: the MAC-derived link-local GID, each IPv6 address, each IPv4
# address as an IPv4-mapped GID; removed addresses disappear.
#
#   [ mrcst0 ]
#       |
#     mst0 (02:00:00:00:00:01, 2001:db8:1::5/64, 192.0.2.7/24) <-- veth --> mst1

source "$(dirname "$0")/lib.sh"

LINK_LOCAL=fe80:0000:0000:0000:0000:00ff:fe00:0001	# from the MAC, EUI-64
V6=2001:0db8:0001:0000:0000:0000:0000:0005
V4_MAPPED=0000:0000:0000:0000:0000:ffff:c000:0207

has_gid() { gid_index_of mrcst0 "$1" >/dev/null; }
lacks_gid() { ! has_gid "$1"; }

setup() { addressed_device; }

gid_link_local_from_mac() {
	setup
	wait_until 20 has_gid $LINK_LOCAL
}

gid_for_ipv6_address() {
	setup
	wait_until 20 has_gid $V6
	local i
	i=$(gid_index_of mrcst0 $V6)
	assert_eq "$(cat /sys/class/infiniband/mrcst0/ports/1/gid_attrs/types/"$i")" "RoCE v2" "GID type"
	assert_eq "$(cat /sys/class/infiniband/mrcst0/ports/1/gid_attrs/ndevs/"$i")" "mst0" "GID netdev"
}

gid_for_ipv4_address_is_mapped() {
	setup
	wait_until 20 has_gid $V4_MAPPED
}

gid_added_after_device() {
	setup
	ip addr add 2001:db8:2::9/64 dev mst0 nodad
	wait_until 20 has_gid 2001:0db8:0002:0000:0000:0000:0000:0009
}

gid_removed_with_address() {
	setup
	wait_until 20 has_gid $V6
	wait_until 20 has_gid $V4_MAPPED
	ip addr del 2001:db8:1::5/64 dev mst0
	ip addr del 192.0.2.7/24 dev mst0
	wait_until 20 lacks_gid $V6
	wait_until 20 lacks_gid $V4_MAPPED
	has_gid $LINK_LOCAL || fail "link-local GID went away too"
}

ktap_run \
	gid_link_local_from_mac \
	gid_for_ipv6_address \
	gid_for_ipv4_address_is_mapped \
	gid_added_after_device \
	gid_removed_with_address
