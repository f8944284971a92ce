#!/usr/bin/env bash
# Boot Debian's kernel in QEMU with mrc.ko and the selftests, run them (or
# the demo), and judge the run from the serial log.
#
# The run fails on: a failed or missing test result, a missing KTAP plan,
# any kernel WARN/BUG/Oops/panic/lockup report, or a timeout.
#
# Usage: run.sh [--build DIR] [--kdir KDIR] [--module MRC_KO] [--tests|--demo|--bench|--shell]
#               [--timeout SEC] [--only "prog.sh ..."]   (tests mode: run just these programs)
#               [--cases "case ..."]   (and of their cases, just these)
#               [--soak]   (the soaks at full length: MRC_SOAK=1 in the VM; CI runs them bounded)
# KDIR is Debian's headers of an installed kernel (/lib/modules/VER/build), or a
# kernel tree built here (the debug kernel of `make check-debug`): then the VM
# boots its bzImage and takes modules from the modroot/ next to it, and the
# tests run with debug=1 (kmemleak scans after the suite and after rmmod).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$top/build
kdir=
module=$top/drivers/infiniband/sw/mrc/mrc.ko
mode=tests
timeout_s=3600	# the whole test run; CI's own limit (90 min) has room for the build and lint too
only=
cases=
soak=0

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--kdir) kdir=$2; shift ;;
	--module) module=$2; shift ;;
	--tests) mode=tests ;;
	--demo) mode=demo ;;
	--bench) mode=bench ;;
	--shell) mode=shell ;;
	--timeout) timeout_s=$2; shift ;;
	--only) only=$2; shift ;;
	--cases) cases=$2; shift ;;
	--soak) soak=1 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

# The VM boots the kernel whose headers mrc.ko was built against.
if [ -z "$kdir" ]; then
	kdir=$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n1)
fi
debug=0
if [ -r "$kdir/arch/x86/boot/bzImage" ]; then
	kver=$(cat "$kdir/include/config/kernel.release")
	kernel=$kdir/arch/x86/boot/bzImage
	export MRC_MODROOT=$(dirname "$kdir")/modroot
	debug=1
else
	kver=$(basename "$(dirname "$kdir")")
	kernel=/boot/vmlinuz-$kver
fi
[ -r "$kernel" ] || { echo "run.sh: no $kernel (run make setup)" >&2; exit 1; }
[ -r "$module" ] || { echo "run.sh: $module not built (run make)" >&2; exit 1; }

vm=$build/vm
mkdir -p "$vm"
log=$vm/serial-$mode.log
initrd=$vm/initramfs.cpio

echo "run.sh: building initramfs for $kver"
"$here/mkinitramfs.sh" "$kver" "$module" "$initrd"

# KVM when it works: /dev/kvm can exist yet never run a guest (nested
# sandboxes), so boot the kernel under KVM once and look for its banner.
# The answer is cached per build dir; MRC_VM_ACCEL=kvm|tcg overrides.
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	timeout -k 2 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -nographic \
		-no-reboot -nic none -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 init=/mrc-probe-does-not-exist" \
		</dev/null 2>/dev/null | grep -q -m1 'Linux version'
}
accel_choice=${MRC_VM_ACCEL:-}
if [ -z "$accel_choice" ]; then
	if [ ! -s "$vm/accel" ]; then
		if kvm_works; then echo kvm; else echo tcg; fi >"$vm/accel"
	fi
	accel_choice=$(cat "$vm/accel")
fi
if [ "$accel_choice" = kvm ]; then
	accel=(-accel kvm -cpu host)
else
	accel=(-accel tcg,thread=multi)
fi

# Every warning is fatal: a WARN panics, a panic powers the VM off.
cmdline="console=ttyS0 panic=-1 oops=panic panic_on_warn=1 softlockup_panic=1"
cmdline+=" hung_task_panic=1 nmi_watchdog=panic loglevel=6 mrc_vm=$mode"
[ -z "$only" ] || cmdline+=" mrc_only=$(echo $only | tr ' ' ,)"
[ -z "$cases" ] || cmdline+=" mrc_cases=$(echo $cases | tr ' ' ,)"
[ $soak -eq 0 ] || cmdline+=" mrc_soak=1"
[ -z "${MRC_PENDING:-}" ] || cmdline+=" mrc_pending=1"	# cases not run by default yet
[ $debug -eq 0 ] || cmdline+=" mrc_debug=1"	# panic_on_warn already stops at a KASAN report

# QEMU writes the serial log; we follow it live, and stop the VM early when
# the kernel reports a leaked netdev reference (it would wait forever).
# A boot that prints nothing for boot_stall_s before the VM's init says it
# booted is stuck, not slow, and is tried again (up to boot_tries times): the
# debug kernel hangs in about half of its boots under TCG in its RCU-tasks
# self test (synchronize_rcu_tasks() at "Running RCU-tasks wait API self
# tests", before any mrc code runs).
boot_stall_s=${MRC_VM_BOOT_STALL_S:-120}
boot_tries=3
timed_out=0 leaked=0 stuck=0
deadline=$((SECONDS + timeout_s))
for try in $(seq 1 $boot_tries); do
	echo "run.sh: booting ${accel[1]} VM (try $try), log in $log"
	: >"$log"
	qemu-system-x86_64 "${accel[@]}" -smp 2 -m 2048 -nographic -no-reboot \
		-nic none -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		</dev/null >"$log" 2>&1 &
	qemu_pid=$!
	tail -n +1 -f --pid=$qemu_pid "$log" &
	tail_pid=$!
	trap 'kill $qemu_pid $tail_pid 2>/dev/null' EXIT

	stuck=0 size=0 quiet_since=$SECONDS booted=0
	while kill -0 $qemu_pid 2>/dev/null; do
		if [ $SECONDS -ge $deadline ]; then
			timed_out=1
			kill $qemu_pid
			break
		fi
		if grep -q 'waiting for .* to become free' "$log"; then
			leaked=1
			sleep 15	# let the kernel print who holds it, then stop
			kill $qemu_pid
			break
		fi
		if [ $booted -eq 0 ]; then
			if grep -q '^MRC-VM: booted' "$log"; then
				booted=1
			elif [ "$(stat -c %s "$log")" != "$size" ]; then
				size=$(stat -c %s "$log")
				quiet_since=$SECONDS
			elif [ $((SECONDS - quiet_since)) -ge $boot_stall_s ]; then
				stuck=1
				echo "run.sh: the boot printed nothing for ${boot_stall_s}s: stuck, booting again" >&2
				kill $qemu_pid
				break
			fi
		fi
		sleep 2
	done
	wait $qemu_pid 2>/dev/null || true
	wait $tail_pid 2>/dev/null || true
	trap - EXIT
	[ $stuck -eq 1 ] || break
done

fail=0
complain() { echo "run.sh: FAIL: $*" >&2; fail=1; }

[ $timed_out -eq 0 ] || complain "timed out after ${timeout_s}s"
[ $leaked -eq 0 ] || complain "a netdev reference leaked (unregister_netdevice waits)"
if grep -nE 'Kernel panic|BUG:|WARNING:|Oops|general protection|Call Trace:|UBSAN:|KASAN:|soft lockup|hard LOCKUP|rcu_sched self-detected|blocked for more than|unreferenced object' "$log" >&2; then
	complain "the kernel reported a problem (lines above)"
fi
grep -q '^MRC-VM-EXIT: rc=0' "$log" || complain "the VM did not finish with rc=0"

if [ "$mode" = tests ]; then
	plan=$(grep -m1 -E '^1\.\.[0-9]+' "$log" | tr -d '\r' || true)
	[ -n "$plan" ] || complain "no KTAP plan in the log"
	want=${plan#1..}
	got=$(grep -cE '^ok [0-9]+ ' "$log" || true)
	bad=$(grep -cE '^not ok [0-9]+ ' "$log" || true)
	if [ "$bad" -ne 0 ]; then
		# CI keeps only the log's tail: repeat which subtests failed and why
		echo "run.sh: the failed subtests and their messages:" >&2
		# (the tests' own fail() lines, not the expected FAILs of tools they kill)
		grep -E '^(# )*not ok [0-9]+ |^(# )+FAIL: ' "$log" | tail -n 40 >&2 || true
		complain "$bad test program(s) failed"
	fi
	[ -z "$plan" ] || [ "$got" -eq "$want" ] || complain "$got of $want test programs passed"
fi

if [ $fail -eq 0 ]; then
	echo "run.sh: success ($mode)"
fi
exit $fail
