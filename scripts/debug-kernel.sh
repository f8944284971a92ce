#!/usr/bin/env bash
# Build the debug kernel `make check-debug` boots: Debian's linux-source-6.1
# with x86_64_defconfig plus selftests/vm/debug.config (KASAN, KFENCE,
# lockdep, atomic-sleep checks, kmemleak, debugobjects, UBSAN), built once
# into BUILD_DIR/debug-kernel and reused while the source package and the
# fragment stay the same.
#
# Usage: scripts/debug-kernel.sh [BUILD_DIR]
# Prints nothing on reuse; the tree to build mrc.ko against is
# BUILD_DIR/debug-kernel/linux, its modules are under .../modroot.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
out=$build/debug-kernel
src=$out/linux
fragment=$top/selftests/vm/debug.config
tarball=/usr/src/linux-source-6.1.tar.xz

packages=(linux-source-6.1 gcc make bc flex bison libelf-dev libssl-dev cpio kmod xz-utils)
missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo_cmd=()
	[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
	echo "debug-kernel: installing ${missing[*]}"
	"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The build is reused while the source package and the fragment's settings are
# unchanged; a changed fragment rebuilds in the same tree (kbuild redoes what
# the changed options touch), a new source package starts from scratch.
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
want="$version $(grep '^CONFIG_' "$fragment" | sha256sum | cut -d' ' -f1)"
if [ -r "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$want" ] &&
	[ -r "$src/arch/x86/boot/bzImage" ]; then
	exit 0
fi
if [ "$(cat "$out/source-version" 2>/dev/null)" != "$version" ]; then
	rm -rf "$out"
	mkdir -p "$out"
	echo "debug-kernel: unpacking $tarball"
	tar -xaf "$tarball" -C "$out"
	mv "$out/linux-source-6.1" "$src"
	echo "$version" >"$out/source-version"
fi
rm -f "$out/stamp"

# The same compiler as Debian's own build of this kernel.
cc=gcc
command -v gcc-12 >/dev/null && cc=gcc-12
kmake=(make -C "$src" CC="$cc" -j"$(nproc)")

"${kmake[@]}" -s x86_64_defconfig
"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" "$fragment" >/dev/null
"${kmake[@]}" -s olddefconfig

# A fragment line that did not survive olddefconfig (a missing dependency,
# a renamed symbol) would quietly build a kernel that checks less.
lost=0
while IFS= read -r line; do
	case $line in CONFIG_*=*) ;; *) continue ;; esac
	sym=${line%%=*} val=${line#*=}
	if [ "$val" = n ]; then
		grep -qx "$sym=[ym]" "$src/.config" || continue
	else
		grep -qx "$line" "$src/.config" && continue
	fi
	echo "debug-kernel: $line did not stick ($(grep -E "^(# )?$sym[= ]" "$src/.config" || echo unset))" >&2
	lost=1
done <"$fragment"
[ $lost -eq 0 ] || exit 1

echo "debug-kernel: building $(make -s -C "$src" kernelrelease) with $cc on $(nproc) CPUs"
start=$SECONDS
"${kmake[@]}" -s bzImage modules
rm -rf "$out/modroot"
"${kmake[@]}" -s modules_install INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 >/dev/null
echo "debug-kernel: built in $((SECONDS - start)) s"
echo "$want" >"$out/stamp"
