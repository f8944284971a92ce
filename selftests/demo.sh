#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What mrc does today, shown in the VM: an mrc RDMA device appears on a
# netdev, follows its state and addresses, and goes away cleanly.
set -e
say() { printf '\n=== %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

say "load the module"
run modprobe mrc
run modinfo -F description mrc

say "a veth pair to bind to, with addresses"
ip link add eth-a address 02:00:00:00:00:0a type veth peer name eth-b
ip addr add 2001:db8::a/64 dev eth-a nodad
ip addr add 192.0.2.10/24 dev eth-a
ip link set eth-a up
ip link set eth-b up

say "create the RDMA device"
run rdma link add mrc0 type mrc netdev eth-a
run rdma dev show mrc0
run rdma link show mrc0/1
sleep 1
say "its RoCEv2-style GID table, from eth-a's addresses"
for g in /sys/class/infiniband/mrc0/ports/1/gids/*; do
	v=$(cat "$g")
	[ "$v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
	echo "  gid ${g##*/}: $v ($(cat /sys/class/infiniband/mrc0/ports/1/gid_attrs/types/${g##*/}))"
done

say "the port follows the netdev"
run ip link set eth-a down
run rdma link show mrc0/1
run ip link set eth-a up
run rdma link show mrc0/1

say "remove it"
run rdma link del mrc0
run rdma link show
run rmmod mrc
echo
echo "demo: done"
