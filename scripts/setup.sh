#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install what the project needs on a Debian 12 machine, or, when not root,
# say exactly what to install. Quiet and quick when everything is there.
#
# usage: scripts/setup.sh [bench|test]   (default: test, which needs more)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

what=${1:-test}

# To build the modules and the tool, boot the stock kernel, run the VMs.
# linux-source-6.12: the stock kernel's dmatest and the 6.12 backport of
# the patch series.
pkgs=(make gcc libc6-dev linux-image-6.12-amd64 linux-headers-6.12-amd64
      linux-source-6.12 qemu-system-x86 busybox-static cpio gzip xz-utils
      file python3)
# To build the patched kernels (memcpy_sg, KASAN, lockdep, ...) from Linux
# 7.3: Debian 12's compiler and tools are new enough. Its source is not a
# package here: scripts/lib.sh downloads linux-source-7.3 with the
# project's apt sources (scripts/apt/sources.list, signed by Debian's
# archive keys) into the cache. dwarves only for BTF, which no fragment
# turns on (7.3 wants pahole 1.26 for it; Debian 12 has 1.24).
pkgs+=(bc flex bison libelf-dev libssl-dev dwarves ccache patch kmod debian-archive-keyring)
# For sweeps, reports and plots (scripts/sweep.py, compare.py, plot.py);
# perf for sweep.py --perf on real hardware; SciPy for compare.py's
# Welch test (Debian's, for /usr/bin/python3, compare.py's python).
pkgs+=(gnuplot-nox linux-perf python3-scipy)
if [ "$what" = test ]; then
	# prove; sparse, pyflakes3 and shellcheck for the lint test
	pkgs+=(perl sparse pyflakes3 shellcheck)
	# The arm and arm64 boards (tools/testing/vm/arm*.t): QEMU, the cross
	# compilers and C libraries for the modules, the tool and the guest
	# programs, and dtc for the derived device tree. Their kernels, headers
	# and busybox are Debian packages of those architectures, fetched into
	# the cache by scripts/vm/foreign-kernel.sh, not installed.
	pkgs+=(qemu-system-arm device-tree-compiler
	       gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	       gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
	# qemu-aarch64 (user mode) runs the cache-maintenance counter's host
	# test (tools/testing/host/dcount.t) under its TCG plugin
	pkgs+=(qemu-user)
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Missing packages. As root, run:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi

say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	cat "$log" >&2
	rm -f "$log"
	die "apt-get failed: see above"
fi
rm -f "$log"
say "installed"
