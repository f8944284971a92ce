#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mrc port follows its netdev: ACTIVE when the netdev is up with
# carrier, DOWN otherwise, with the physical state telling which.
#
#   [ mrcst0 ]
#       |
#     mst0 <--- veth ---> mst1   (mst1 down = no carrier on mst0)

source "$(dirname "$0")/lib.sh"

ACTIVE="4: ACTIVE"
DOWN="1: DOWN"

setup() {
	mrc_load
	veth_pair mst0 mst1
	mrc_link_add mrcst0 mst0
}

port_active_when_netdev_up() {
	setup
	wait_until 10 port_state_is mrcst0 "$ACTIVE"
	assert_eq "$(port_attr mrcst0 phys_state)" "5: LinkUp" "phys_state"
	assert_match "$(rdma link show mrcst0/1)" "state ACTIVE physical_state LINK_UP" "rdma link show"
}

port_down_when_netdev_down() {
	setup
	ip link set mst0 down
	wait_until 10 port_state_is mrcst0 "$DOWN"
	assert_eq "$(port_attr mrcst0 phys_state)" "3: Disabled" "phys_state"
	ip link set mst0 up
	wait_until 10 port_state_is mrcst0 "$ACTIVE"
}

port_down_when_carrier_lost() {
	setup
	ip link set mst1 down		# veth: mst0 loses carrier
	wait_until 10 port_state_is mrcst0 "$DOWN"
	assert_eq "$(port_attr mrcst0 phys_state)" "2: Polling" "phys_state"
	ip link set mst1 up
	wait_until 10 port_state_is mrcst0 "$ACTIVE"
}

port_created_down_on_down_netdev() {
	mrc_load
	ip link add mst0 type veth peer name mst1
	mrc_link_add mrcst0 mst0
	port_state_is mrcst0 "$DOWN" || fail "port of a down netdev is $(port_attr mrcst0 state)"
	ip link set mst0 up
	ip link set mst1 up
	wait_until 10 port_state_is mrcst0 "$ACTIVE"
}

port_flaps_end_in_the_right_state() {
	setup
	local i
	for i in $(seq 1 10); do
		ip link set mst0 down
		ip link set mst0 up
	done
	wait_until 10 port_state_is mrcst0 "$ACTIVE"
	ip link set mst0 down
	wait_until 10 port_state_is mrcst0 "$DOWN"
}

ktap_run \
	port_active_when_netdev_up \
	port_down_when_netdev_down \
	port_down_when_carrier_lost \
	port_created_down_on_down_netdev \
	port_flaps_end_in_the_right_state
