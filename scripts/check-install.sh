#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make install-check: `make install` staged into a scratch root (DESTDIR for the userspace,
# INSTALL_MOD_PATH for the module) must put every piece where the host would look for it, for
# the kernel release of the headers it built against; `make uninstall` must take every one of
# them away again.
#   scripts/check-install.sh KVER
set -eu
kver=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
cd "$(dirname "$0")/.."

fail() {
	echo "install-check: FAIL: $*" >&2
	exit 1
}

make -s install DESTDIR="$root" INSTALL_MOD_PATH="$root" >/dev/null
lib=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

ko=$(find "$root/lib/modules/$kver" -name mrc.ko)
[ -n "$ko" ] || fail "no mrc.ko under lib/modules/$kver"
[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ] || fail "mrc.ko is not built for $kver"
grep -q "/mrc.ko:" "$root/lib/modules/$kver/modules.dep" || fail "depmod did not index mrc.ko"
[ -f "$root/usr/lib/$lib/libmrcdv.so.1" ] || fail "no libmrcdv.so.1"
[ "$(readlink -f "$root/usr/lib/$lib/libibverbs/libmrc-rdmav34.so")" = \
	"$(readlink -f "$root/usr/lib/$lib/libmrcdv.so.1")" ] || fail "the provider link is not libmrcdv.so.1"
grep -qx "driver mrc" "$root/etc/libibverbs.d/mrc.driver" || fail "no driver entry for libibverbs"
[ -f "$root/usr/include/infiniband/mrcdv.h" ] || fail "no mrcdv.h"
"$root/usr/local/sbin/mrcctl" --help >/dev/null || fail "mrcctl --help"
[ -f "$root/usr/local/share/man/man8/mrcctl.8" ] || fail "no mrcctl.8"

make -s uninstall DESTDIR="$root" INSTALL_MOD_PATH="$root" >/dev/null
# depmod's index of the (now empty) module tree is all that may stay
left=$(find "$root" ! -type d ! -path "$root/lib/modules/$kver/modules.*")
[ -z "$left" ] || fail "make uninstall left: $left"
grep -q "/mrc.ko:" "$root/lib/modules/$kver/modules.dep" && fail "depmod still indexes mrc.ko"
echo "install-check: ok: ${ko#"$root"}, the provider, mrcdv.h, mrcctl and its man page;" \
	"make uninstall removed them"
