# SPDX-License-Identifier: GPL-2.0
# lib_flap.sh - leaf-spine links flapping at random under a running job, on the fabrics of
# lib_clos.sh, one plane or two (sourced after lib_clos.sh).

# An SRv6 fabric's leaf reaches spine I's SID over their one link: IPv6 deletes that route
# when the link goes down, and bringing the link up does not restore it.
flap_srv6_route() { # a|b I up|down
	[ -n "$CLOS_SRV6" ] && [ "$3" = up ] || return 0
	if [ "$1" = a ]; then
		echo "route replace $CLOS_SID$2::/64 via 2001:db8:a$2::2"
	else
		echo "route replace $CLOS_SID$2::/64 via 2001:db8:b$2::1"
	fi
}

# For SECONDS, every INTERVAL ms: a random leaf-spine link of SPINES spines (both planes' on a
# two-plane fabric) changes state at the leaf -- down, or back up if it was down -- with at
# most two down at once, so outages last from one interval to seconds. The peer spine sees
# its carrier go and keeps its routes; the leaf's multipath route skips the dead nexthop and
# takes it back on up. Each leaf gets its commands through one `ip -batch` reading a FIFO,
# and the loop keeps its clock without forks: under emulation an `ip netns exec` or a fork
# per flap would take longer than the flap period. FLAP_CHANGES: how many changes were made.
flap_links() { # SPINES SECONDS INTERVAL_MS
	local spines=$1 step_us=$(($3 * 1000)) n=0 down=0 sides=(a b) side i link leaf
	local now next end wait_us wait_s
	local -A fd state leaf_of
	for i in $(seq 1 "$spines"); do
		for side in a b; do leaf_of[$side$i]=$(clos_leaf $side "$i"); done
	done
	for leaf in $(printf '%s\n' "${leaf_of[@]}" | sort -u); do
		rm -f /tmp/flap-$leaf
		mkfifo /tmp/flap-$leaf
		ip netns exec "$leaf" ip -force -batch /tmp/flap-$leaf &
		exec {fd[$leaf]}>/tmp/flap-$leaf
	done
	now=${EPOCHREALTIME/./}
	next=$now end=$((now + $2 * 1000000))
	while now=${EPOCHREALTIME/./}; [ "$now" -lt $end ]; do
		side=${sides[RANDOM % 2]}
		i=$((RANDOM % spines + 1))
		link="$side$i"
		if [ "${state[$link]:-up}" = down ]; then
			state[$link]=up
			down=$((down - 1))
		elif [ $down -lt 2 ]; then
			state[$link]=down
			down=$((down + 1))
		else
			continue
		fi
		leaf=${leaf_of[$link]}
		echo "link set dev $leaf-s$i ${state[$link]}" >&"${fd[$leaf]}"
		flap_srv6_route "$side" $i "${state[$link]}" >&"${fd[$leaf]}"
		n=$((n + 1))
		next=$((next + step_us))
		now=${EPOCHREALTIME/./}
		wait_us=$((next - now))
		if [ $wait_us -gt 0 ]; then
			printf -v wait_s '%d.%06d' $((wait_us / 1000000)) $((wait_us % 1000000))
			sleep "$wait_s"
		else
			next=$now	# late: the next change comes an interval after this one
		fi
	done
	for link in "${!state[@]}"; do
		leaf=${leaf_of[$link]}
		echo "link set dev $leaf-s${link:1} up" >&"${fd[$leaf]}"
		flap_srv6_route "${link:0:1}" "${link:1}" up >&"${fd[$leaf]}"
	done
	for leaf in "${!fd[@]}"; do exec {fd[$leaf]}>&-; done
	wait_until 10 links_up "$spines"
	echo "$n link state changes in $2 s (one per $(($2 * 1000 / n)) ms; $3 asked)"
	FLAP_CHANGES=$n
}

# Every leaf-spine link of SPINES spines is up again.
links_up() { # SPINES
	local i side leaf
	for i in $(seq 1 "$1"); do
		for side in a b; do
			leaf=$(clos_leaf $side "$i")
			ns_ex "$leaf" ip link show dev "$leaf-s$i" | grep -q "state UP" || return 1
		done
	done
}
