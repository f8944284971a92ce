#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rdma link add/del` of type mrc: creation, removal by every path, and
# every way of asking for a device that must be refused cleanly.
#
#   [ mrcst0 ]            (rdma device, type mrc)
#       |
#     mst0 <--- veth ---> mst1

source "$(dirname "$0")/lib.sh"

module_info() {
	mrc_load
	assert_eq "$(modinfo -F license mrc)" "GPL" "module license"
	assert_match "$(modinfo -F alias mrc)" "^rdma-link-mrc$" "module alias"
	assert_match "$(modinfo -F depends mrc)" "ib_core" "module dependencies"
}

link_add_creates_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	rdev_exists mrcst0 || fail "no /sys/class/infiniband/mrcst0"
	assert_match "$(rdma dev show mrcst0)" "^0*[0-9]+: mrcst0: node_type ca" "rdma dev show"
	assert_match "$(rdma link show mrcst0/1)" "netdev mst0" "rdma link show"
	assert_eq "$(port_attr mrcst0 link_layer)" "Ethernet" "link layer"
}

link_add_creates_uverbs_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	local f found=
	for f in /sys/class/infiniband_verbs/uverbs*/ibdev; do
		[ "$(cat "$f" 2>/dev/null)" = mrcst0 ] && found=${f%/ibdev}
	done
	[ -n "$found" ] || fail "no uverbs device for mrcst0"
	wait_until 10 test -c "/dev/infiniband/${found##*/}"
}

link_del_removes_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	rdma link del mrcst0
	rdev_absent mrcst0 || fail "mrcst0 still present after rdma link del"
	# the netdev is free again: a new device may be bound to it
	mrc_link_add mrcst1 mst0
	rdev_exists mrcst1 || fail "cannot re-add after delete"
}

netdev_removal_removes_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	ip link del mst0
	wait_until 20 rdev_absent mrcst0
}

netdev_move_to_netns_removes_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	ip netns add mstns
	ip link set mst0 netns mstns
	wait_until 20 rdev_absent mrcst0
}

add_del_cycles_leave_nothing() {
	mrc_load
	veth_pair mst0 mst1
	local before i
	before=$(rdev_count)
	for i in $(seq 1 20); do
		mrc_link_add mrcst0 mst0
		rdma link del mrcst0
	done
	assert_eq "$(rdev_count)" "$before" "rdma devices after 20 add/del cycles"
}

two_devices_on_two_netdevs() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	mrc_link_add mrcst1 mst1
	assert_match "$(rdma link show mrcst1/1)" "netdev mst1" "second device"
}

bad_unknown_netdev() {
	mrc_load
	local before
	before=$(rdev_count)
	expect_error "unknown netdev" "No such device" mrc_link_add mrcst0 mstnope
	assert_eq "$(rdev_count)" "$before" "rdma devices"
}

bad_netdev_already_has_mrc_device() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	expect_error "second device on one netdev" "File exists" mrc_link_add mrcst1 mst0
	rdev_absent mrcst1 || fail "mrcst1 was created"
	assert_match "$(rdma link show mrcst0/1)" "netdev mst0" "first device intact"
	kmsg_says "mst0 already has an mrc device" || fail "no clear message in the kernel log"
}

bad_non_ethernet_netdev() {
	mrc_load
	expect_error "loopback netdev" "Invalid argument" mrc_link_add mrcst0 lo
	rdev_absent mrcst0 || fail "device created on lo"
	ip tuntap add dev msttun0 mode tun
	expect_error "tun (ARPHRD_NONE) netdev" "Invalid argument" mrc_link_add mrcst0 msttun0
	ip link del msttun0
	rdev_absent mrcst0 || fail "device created on a tun device"
	kmsg_says "msttun0: not an Ethernet device" || fail "no clear message in the kernel log"
}

bad_name_clash() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	expect_error "name already taken" "File exists" mrc_link_add mrcst0 mst1
	kmsg_says "an RDMA device named mrcst0 already exists" || fail "no clear message in the kernel log"
	assert_match "$(rdma link show mrcst0/1)" "netdev mst0" "existing device intact"
	# the refused attempt left no claim on mst1
	mrc_link_add mrcst1 mst1
}

bad_name_pattern() {
	mrc_load
	veth_pair mst0 mst1
	expect_error "name with %" "Invalid argument" mrc_link_add "mrcst%d" mst0
	mrc_link_add mrcst0 mst0	# and mst0 is still free
}

rmmod_with_devices_present() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
	mrc_link_add mrcst1 mst1
	rmmod mrc
	[ ! -d /sys/module/mrc ] || fail "module still loaded"
	rdev_absent mrcst0 || fail "mrcst0 survived rmmod"
	rdev_absent mrcst1 || fail "mrcst1 survived rmmod"
	modprobe mrc
	mrc_link_add mrcst0 mst0	# works again after reload
}

ktap_run \
	module_info \
	link_add_creates_device \
	link_add_creates_uverbs_device \
	link_del_removes_device \
	netdev_removal_removes_device \
	netdev_move_to_netns_removes_device \
	add_del_cycles_leave_nothing \
	two_devices_on_two_netdevs \
	bad_unknown_netdev \
	bad_netdev_already_has_mrc_device \
	bad_non_ethernet_netdev \
	bad_name_clash \
	bad_name_pattern \
	rmmod_with_devices_present
