#!/usr/bin/env bash
# Assemble the VM's initramfs from this host's installed packages and the
# built artifacts: busybox for the basics, real host programs (and every
# library they load) for everything under test, the kernel module closure
# re-indexed with depmod, and the selftests.
#
# Usage: mkinitramfs.sh KVER MODULE_KO OUT_CPIO
# The userspace build (`make userspace`: the verbs provider, mrc_verbs_probe, mrc_stress,
# mrc_bad_input, mrcctl) is taken from $MRC_USERSPACE_BUILD, by default the userspace/ directory next to
# OUT_CPIO's directory. Kernel modules come from /lib/modules, or from
# $MRC_MODROOT/lib/modules for a kernel built here (the debug kernel).
set -euo pipefail

kver=$1 module_ko=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root=$(dirname "$out")/root
userspace=${MRC_USERSPACE_BUILD:-$(cd "$(dirname "$out")/.." && pwd)/userspace}
provider=$userspace/userspace/provider/libmrcdv.so.1
[ -r "$provider" ] || { echo "mkinitramfs: no $provider (run make userspace)" >&2; exit 1; }

rm -rf "$root"
mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,proc,sys,dev,tmp,run,root,mrc}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done

# Copy a host file to the same path in the image, following symlinks.
put() {
	local src=$1 dst=$root${2:-$1}
	mkdir -p "$(dirname "$dst")"
	cp -L "$src" "$dst"
}

# Copy a program and the shared libraries the dynamic loader would map; ours (the provider,
# found in the build tree by RPATH) is installed once, below, where the VM's loader finds it.
put_elf() {
	local f=$1 lib
	put "$f" "${2:-}"
	for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ "$(basename "$lib")" != libmrcdv.so.1 ] || continue
		[ -e "$root$lib" ] || put "$lib"
	done
}

cp /usr/bin/busybox "$root/usr/bin/busybox"

# glibc dlopens libgcc_s for pthread_exit/cancellation; ldd never lists it
put_elf "$(ls /usr/lib/x86_64-linux-gnu/libgcc_s.so.1)"

grep -v '^#' "$here/programs" | while read -r prog; do
	[ -n "$prog" ] || continue
	path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$prog") ||
		{ echo "mkinitramfs: $prog not installed (run make setup)" >&2; exit 1; }
	put_elf "$path" "/usr/bin/$prog"
done

# UCX's transports are modules it dlopens from ucx/ beside libucs; ldd never lists them
for mod in /usr/lib/x86_64-linux-gnu/ucx/libuct_*.so.0; do
	put_elf "$mod"
done

# Open MPI's components (and PMIx's), dlopened from its library directory; its help texts
# and default parameters, read at run time
for mod in /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so \
	/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so; do
	put_elf "$mod"
done
for d in /usr/share/openmpi /usr/lib/x86_64-linux-gnu/pmix2/share /etc/openmpi; do
	mkdir -p "$root$(dirname "$d")"
	cp -rL "$d" "$root$d"
done

# libibverbs providers the VM uses, and their driver entries: rxe from the host, ours built here
verbs_dir=/usr/lib/x86_64-linux-gnu/libibverbs
for drv in rxe; do
	put "/etc/libibverbs.d/$drv.driver"
	put_elf "$verbs_dir/lib$drv-rdmav34.so"
done
# libmrcdv.so.1 is both the provider libibverbs loads and a library our tools link with: one
# file, as an installation has it, so that the loader maps it once
put_elf "$provider" /usr/lib/x86_64-linux-gnu/libmrcdv.so.1
ln -s ../libmrcdv.so.1 "$root$verbs_dir/libmrc-rdmav34.so"
put "$top/userspace/provider/mrc.driver" /etc/libibverbs.d/mrc.driver
# our verbs tools, where the selftests find them on PATH
put_elf "$userspace/userspace/provider/mrc_verbs_probe" /usr/bin/mrc_verbs_probe
for tool in mrc_stress mrc_bad_input mrc_ud_check mrc_ring_scribble mrc_recv_scribble mrc_nl_check mrc_nl_fuzz mrc_pkt_fuzz; do
	put_elf "$userspace/userspace/provider/$tool" "/usr/bin/$tool"
done
put_elf "$userspace/userspace/jobs/mrc_allreduce" /usr/bin/mrc_allreduce
# the controller CLI (libnl-genl-3 and libnl-3 come with it)
put_elf "$userspace/userspace/mrcctl/mrcctl" /usr/sbin/mrcctl

# Kernel modules: the closure of what the VM needs (built-in ones need
# nothing), plus ours in extra/
modroot=${MRC_MODROOT:-}
mods=$root/lib/modules/$kver
mkdir -p "$mods/extra"
grep -v '^#' "$here/modules" | while read -r m _; do
	[ -n "$m" ] || continue
	modprobe -d "${modroot:-/}" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do put "$ko" "${ko#"$modroot"}"; done
cp "$module_ko" "$mods/extra/"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	put "$modroot/lib/modules/$kver/$f" "/lib/modules/$kver/$f"
done
depmod -b "$root" "$kver"

# The tests and the VM's init
cp -r "$top/selftests" "$root/mrc/"
rm -rf "$root/mrc/selftests/vm"
cp "$here/init" "$root/init"
chmod +x "$root/init"
grep -v "^#" "$here/modules" >"$root/etc/mrc-modules"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out"
