#!/usr/bin/env bash
# Install everything mrc needs to build, test and demo, from Debian's packages only.
# Idempotent: installs only what is missing, and fetches the rdma-core source once.
# Usage: scripts/setup.sh [BUILD_DIR]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}

packages=(
	# kernel the VM boots, and the headers mrc.ko builds against
	linux-image-amd64 linux-headers-amd64 gcc make bc
	# VM rig
	qemu-system-x86 busybox-static kmod cpio
	# RDMA userspace the selftests drive
	rdma-core ibverbs-utils perftest rdmacm-utils iproute2 libibverbs-dev librdmacm-dev
	# UCX and Open MPI over mrc (issue 17): ucx_info, ucx_perftest, mpirun, and mpicc for our job
	ucx-utils libucx0 openmpi-bin libopenmpi-dev
	# what the selftests read mrcctl's JSON with, and run it unprivileged with
	jq util-linux
	# userspace build (mrcctl, provider, unit tests)
	cmake ninja-build pkg-config python3 python3-yaml g++ clang clang-format clang-tidy
	googletest libgtest-dev libnl-3-dev libnl-genl-3-dev libnl-route-3-dev libudev-dev
	# static checks of the kernel code
	sparse
)

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

missing=()
for p in "${packages[@]}"; do
	case $p in '#'*) continue ;; esac
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# rdma-core 56.1 source: the provider needs its private headers (driver.h & co.).
# Debian 12 serves no source for its own 44.0; trixie's 56.1 source is on the mirror.
# Use a private sources list so the user's apt configuration is never changed.
rc_ver=56.1
rc_tar=rdma-core_${rc_ver}.orig.tar.gz
rc_sha=63ce7f2baa7242c2dbc76375dac957c420187dd27f8c5e148efc07971ee522a8
deps=$build/deps
mkdir -p "$deps"
if [ ! -d "$deps/rdma-core-$rc_ver" ]; then
	if ! echo "$rc_sha  $deps/$rc_tar" | sha256sum -c --status 2>/dev/null; then
		apt_dir=$deps/apt
		mkdir -p "$apt_dir/lists/partial"
		uri=$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
		uri=${uri:-http://deb.debian.org/debian}
		cat >"$apt_dir/sources.list" <<-SRC
		deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main
		SRC
		apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=-"
			-o "Dir::State::Lists=$apt_dir/lists" -o "APT::Sandbox::User=root")
		apt-get "${apt_opts[@]}" update -qq
		# The .dsc is not served, so apt-get exits non-zero even when the tarball arrived:
		# judge by the checksum, not the exit code.
		(cd "$deps" && apt-get "${apt_opts[@]}" source --download-only "rdma-core=$rc_ver-1" >/dev/null 2>&1 || true)
		echo "$rc_sha  $deps/$rc_tar" | sha256sum -c --status ||
			{ echo "setup: could not fetch $rc_tar from the Debian mirror" >&2; exit 1; }
	fi
	tar -C "$deps" -xzf "$deps/$rc_tar"
fi

echo "setup: ok (kernel $(cd /lib/modules && ls -d */build 2>/dev/null | sed 's,/build,,' | sort -V | tail -n1))"
