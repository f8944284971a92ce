# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers shared by the mrc selftests (sourced, bash).
#
# A test file defines one function per test case and ends with
#     ktap_run test_a test_b ...
# Each case runs in its own subshell with `set -e`; it passes by returning,
# fails through `fail` or any failing command, skips through `skip`.
# Objects the tests make are named so cleanup can find them without
# touching anything else on a real host: netdevs mst*, rdma devices mrcst*.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_XFAIL=2
KSFT_SKIP=4

fail() { echo "FAIL: $*" >&2; exit $KSFT_FAIL; }
skip() { echo "SKIP: $*" >&2; exit $KSFT_SKIP; }
# A known failure, measured and reported, that does not fail the run (an issue tracks it).
xfail() { echo "XFAIL: $*" >&2; exit $KSFT_XFAIL; }

assert_eq() { # ACTUAL EXPECTED WHAT
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"
}

assert_match() { # STRING EXTENDED-REGEX WHAT
	echo "$1" | grep -qE -- "$2" || fail "$3: '$1' does not match /$2/"
}

# Run a command that must fail with a message matching REGEX; print what
# it said so the log shows the user-facing error.
expect_error() { # WHAT REGEX CMD...
	local what=$1 regex=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		fail "$what: '$*' succeeded but must fail"
	fi
	echo "expected error ($what): ${out:-<no message>}"
	assert_match "$out" "$regex" "$what: error message"
}

# The last lines of the kernel log mention TEXT.
kmsg_says() { dmesg | tail -n 5 | grep -qF -- "$1"; }

# Poll until CMD succeeds, for at most SECONDS (slow under TCG: be generous).
# WAIT_INTERVAL: seconds between tries (default 0.1).
wait_until() { # SECONDS CMD...
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || fail "timed out waiting for: $*"
		sleep "${WAIT_INTERVAL:-0.1}"
	done
}

# A soak's length: BOUNDED seconds in the suite CI runs, FULL under `make soak` (MRC_SOAK=1).
soak_seconds() { # BOUNDED FULL
	if [ -n "${MRC_SOAK:-}" ]; then echo "$2"; else echo "$1"; fi
}

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; } # busybox date has no %N

# Send SIG to every process whose command name is NAME (of any netns); false if none.
signal_named() { # SIG NAME
	local p sent=1
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "$2" ] && kill -"$1" "${p#/proc/}" 2>/dev/null &&
			sent=0
	done
	return $sent
}

mrc_load() {
	[ -d /sys/module/mrc ] || modprobe mrc || fail "cannot load mrc.ko"
}

rdev_exists() { [ -e "/sys/class/infiniband/$1" ]; }
rdev_absent() { ! rdev_exists "$1"; }

# Number of rdma devices of any kind.
rdev_count() { ls /sys/class/infiniband 2>/dev/null | wc -l; }

port_attr() { # DEV ATTR -> contents of /sys/class/infiniband/DEV/ports/1/ATTR
	cat "/sys/class/infiniband/$1/ports/1/$2"
}

port_state_is() { # DEV "4: ACTIVE"|"1: DOWN"
	[ "$(port_attr "$1" state)" = "$2" ]
}

# An up veth pair A <-> B in the current namespace.
veth_pair() { # A B
	ip link add "$1" type veth peer name "$2"
	ip link set "$1" up
	ip link set "$2" up
}

mrc_link_add() { # NAME NETDEV
	rdma link add "$1" type mrc netdev "$2"
}

# mrcst0 on mst0 (MAC 02:00:00:00:00:01, 2001:db8:1::5/64, 192.0.2.7/24),
# whose veth peer is mst1.
addressed_device() {
	mrc_load
	ip link add mst0 address 02:00:00:00:00:01 type veth peer name mst1
	ip addr add 2001:db8:1::5/64 dev mst0 nodad
	ip addr add 192.0.2.7/24 dev mst0
	ip link set mst0 up
	ip link set mst1 up
	mrc_link_add mrcst0 mst0
}

gid_index_of() { # DEV GID -> index
	local f
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		[ "$(cat "$f" 2>/dev/null)" = "$2" ] && { echo "${f##*/}"; return 0; }
	done
	return 1
}

# Set mrc.ko's parameter NAME to VALUE for this test; cleanup_world puts the module's value
# back, so the next test (or program) starts from the defaults.
MRC_PARAMS_SAVED=/tmp/mrc-params.saved
mrc_param_set() { # NAME VALUE
	local f=/sys/module/mrc/parameters/$1
	grep -q "^$1 " $MRC_PARAMS_SAVED 2>/dev/null || echo "$1 $(cat "$f")" >>$MRC_PARAMS_SAVED
	echo "$2" >"$f"
}

# Open mrc.ko's race windows (drivers/infiniband/sw/mrc/mrc_race.h) at SITES, a bit mask (1:
# an MR found by key, 2: a device found for a packet), for US microseconds each, when the
# module is the test build that has them (make check-debug); with any other build the test
# stays a plain stress. cleanup_world closes them.
race_windows_open() { # SITES US
	[ -e /sys/module/mrc/parameters/race_windows ] || return 0
	mrc_param_set race_window_us "$2"
	mrc_param_set race_windows "$1"
	echo "race windows $1 open for $2 us each"
}

# Remove every object a test may have left behind.
cleanup_world() {
	local d n i
	if [ -e $MRC_PARAMS_SAVED ]; then
		[ ! -d /sys/module/mrc ] || while read -r n d; do
			[ -z "$d" ] || echo "$d" >/sys/module/mrc/parameters/"$n" 2>/dev/null || true
		done <$MRC_PARAMS_SAVED
		rm -f $MRC_PARAMS_SAVED
	fi
	# Processes first: a device is only unregistered once every process that
	# opened it has let go (rdma link del waits for them), and a test may
	# leave one behind (a server whose client failed).
	for i in $(seq 50); do
		n=$(for d in $(ip netns list 2>/dev/null | awk '/^mst/ { print $1 }'); do
			ip netns pids "$d"; done)
		[ -n "$n" ] || break
		echo "$n" | xargs -r kill -9 2>/dev/null || true	# some may be gone already
		sleep 0.1
	done
	for d in /sys/class/infiniband/mrcst*; do
		[ -e "$d" ] && rdma link del "${d##*/}" 2>/dev/null
	done
	for n in /sys/class/net/mst*; do
		[ -e "$n" ] && ip link del "${n##*/}" 2>/dev/null
	done
	for n in $(ip netns list 2>/dev/null | awk '/^mst/ { print $1 }'); do
		ip netns pids "$n" | xargs -r kill -9 2>/dev/null || true
		ip netns del "$n"
	done
	return 0
}

# Run the named test functions and print KTAP; exit 0 when none failed.
ktap_run() {
	local n=0 pass=0 failed=0 skipped=0 xfailed=0 t t0 rc
	if [ -n "${MRC_CASES:-}" ]; then	# the VM rig's --cases: just these, where they exist
		local want=() c
		for t in "$@"; do
			for c in $MRC_CASES; do [ "$c" != "$t" ] || want+=("$t"); done
		done
		set -- "${want[@]}"
	fi
	KTAP_OUT=$(mktemp)
	echo "TAP version 13"
	echo "1..$#"
	for t in "$@"; do
		n=$((n + 1))
		t0=$SECONDS
		cleanup_world
		# Into a file, not a pipe: a background job the test left behind (a failure
		# exits before its kill) must not hold the runner until the job ends.
		( set -e; trap 'kill $(jobs -p) 2>/dev/null || true' EXIT; "$t" ) >"$KTAP_OUT" 2>&1
		rc=$?
		sed 's/^/# /' "$KTAP_OUT"
		cleanup_world
		echo "# $t: $((SECONDS - t0)) s"
		case $rc in
		0) echo "ok $n $t"; pass=$((pass + 1)) ;;
		"$KSFT_SKIP") echo "ok $n $t # SKIP"; skipped=$((skipped + 1)) ;;
		"$KSFT_XFAIL") echo "ok $n $t # XFAIL"; xfailed=$((xfailed + 1)) ;;
		*) echo "not ok $n $t"; failed=$((failed + 1)) ;;
		esac
	done
	rm -f "$KTAP_OUT"
	echo "# Totals: pass:$pass fail:$failed xfail:$xfailed xpass:0 skip:$skipped error:0"
	[ $failed -eq 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP mrc selftests need root"; exit $KSFT_SKIP; }
