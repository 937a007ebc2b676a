#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The migration provider (kernel/mm/dma_migrate/offload.c and copy.c,
# through hook.h) against the interface of the RFC its hook is
# shaped after ("Accelerate page migration with batch copying and hardware
# offload" v6, linux-mm, 2026-06-30; issue 36): one source for both hooks.
#
# On a kernel build tree of the cache with the project's hook (the newest
# $DMA_BENCH_CACHE/kernels/*/build with CONFIG_MIGRATION_COPY_OFFLOAD=y;
# MIGRATE_RFC_KDIR=DIR to choose one), two builds at once:
#
# - rfc: with fixtures/migrate-rfc-v6/ ahead of the kernel's headers, as a
#   kernel carrying the RFC has them: the project's description of the
#   RFC's <linux/migrate_copy_offload.h> and of what it adds to
#   <linux/migrate.h>, written from the postings (their tops say which).
#   The build probes must find the RFC's hook (HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#   and not the project's, and the provider's two files must compile with
#   W=1 and -Werror, the description's two headers among what they read;
# - project: the tree as it is: the probes find the project's hook and not
#   the RFC's, and the same two files compile the same way.
#
# A missing tool, a compiler the tree cannot use or a file that does not
# compile is a failed test; a cache without such a tree is the one skip
# (scripts/kernel/build-debug-kernel.sh builds one). About 20 s of CPU,
# the two builds sharing two cores.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
export LC_ALL=C
# the caller's make and kbuild settings stay out (make check-host's too)
unset MAKEFLAGS MFLAGS MAKELEVEL O KBUILD_OUTPUT KBUILD_EXTMOD M KCFLAGS \
	KCPPFLAGS CC LD ARCH CROSS_COMPILE W C

fix=$TOP/tools/testing/host/fixtures/migrate-rfc-v6
objs=(kernel/mm/dma_migrate/offload.o kernel/mm/dma_migrate/copy.o)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

missing=
for tool in make gcc; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	tap_not_ok "the tools to build the provider are there (missing:$missing; scripts/setup.sh installs them)"
	tap_end
fi

# hook_tree DIR: DIR is a kernel build tree with the project's hook, for
# this machine's architecture (the arm64 kernels carry it too, cross-built)
hook_tree() {
	[ -f "$1/Makefile" ] &&
		grep -qx 'CONFIG_MIGRATION_COPY_OFFLOAD=y' "$1/.config" 2>/dev/null &&
		case $(uname -m) in
		x86_64) grep -qx 'CONFIG_X86_64=y' "$1/.config" ;;
		aarch64) grep -qx 'CONFIG_ARM64=y' "$1/.config" ;;
		*) false ;;
		esac
}

if [ -n "${MIGRATE_RFC_KDIR:-}" ]; then
	kdir=$MIGRATE_RFC_KDIR
	hook_tree "$kdir"
	tap_result $? "MIGRATE_RFC_KDIR=$kdir is a kernel build tree with CONFIG_MIGRATION_COPY_OFFLOAD=y"
	[ "$TAP_FAILED" = 0 ] || tap_end
else
	kdir=
	# the complete builds of scripts/kernel/build-debug-kernel.sh, newest
	# first (the cache's names are hexadecimal keys)
	while read -r d; do
		d=${d%/stamp}/build
		if hook_tree "$d"; then
			kdir=$d
			break
		fi
	done < <(ls -1dt "$DMA_BENCH_CACHE"/kernels/*/stamp 2>/dev/null)
	if [ -z "$kdir" ]; then
		tap_skip "no kernel build tree with the project's hook (CONFIG_MIGRATION_COPY_OFFLOAD=y) in $DMA_BENCH_CACHE/kernels/: scripts/kernel/build-debug-kernel.sh builds one"
		tap_end
	fi
fi
echo "# against $kdir ($(cat "$kdir/include/config/kernel.release" 2>/dev/null))"

# build NAME [INCLUDE]: the provider's sources in $tmp/NAME/src, probed
# and compiled against $kdir with INCLUDE, if given, ahead of its headers;
# exit statuses in $tmp/NAME/*.rc, output in $tmp/NAME/*.log
build() {
	local dir=$tmp/$1 inc=${2:-} make=make
	local src=$dir/src
	mkdir -p "$src/kernel/mm/dma_migrate" "$src/kernel/generated" \
		"$src/kernel/drivers/dma/dmacopy"
	cp "$TOP"/kernel/mm/dma_migrate/*.[ch] "$TOP/kernel/mm/dma_migrate/Kbuild" \
		"$src/kernel/mm/dma_migrate/" &&
		cp "$TOP/kernel/compat.h" "$TOP/kernel/seg_limits.h" "$src/kernel/" &&
		cp "$TOP/kernel/drivers/dma/dmacopy/dmacopy.h" \
			"$src/kernel/drivers/dma/dmacopy/" &&
		cp -r "$TOP/uapi" "$src/" || { echo 1 > "$dir/probes.rc"; return; }
	echo 'obj-m += kernel/mm/dma_migrate/' > "$src/Kbuild"
	if [ -n "$inc" ]; then
		# kbuild puts NOSTDINC_FLAGS ahead of the kernel's include
		# directories; the kernel's own value is -nostdinc
		make=$dir/make
		printf '#!/bin/sh\nexec make "NOSTDINC_FLAGS=-I%s -nostdinc" "$@"\n' \
			"$inc" > "$make"
		chmod +x "$make"
	fi
	KDIR=$kdir MAKE=$make "$TOP/scripts/kbuild-probes.sh" \
		"$src/kernel/generated/probes.h" "$TOP"/kernel/probes/*.c \
		"$TOP"/kernel/probes/*.exports > "$dir/probes.log" 2>&1
	echo $? > "$dir/probes.rc"
	"$make" -C "$kdir" M="$src" W=1 KCFLAGS=-Werror "${objs[@]}" \
		> "$dir/make.log" 2>&1
	echo $? > "$dir/make.rc"
}

build rfc "$fix" &
build project &
wait

# results NAME HAVE NOT: the TAP lines of build NAME, whose probes must set
# HAVE and not NOT
results() {
	local name=$1 have=$2 not=$3 dir=$tmp/$1 rc o
	rc=$(cat "$dir/probes.rc")
	[ "$rc" = 0 ] || tap_diag "$dir/probes.log"
	tap_result "$rc" "$name: the build probes run against the tree"
	grep -qx "#define $have 1" "$dir/src/kernel/generated/probes.h" 2>/dev/null &&
		! grep -q "#define $not " "$dir/src/kernel/generated/probes.h"
	rc=$?
	[ "$rc" = 0 ] || tap_diag "$dir/src/kernel/generated/probes.h" 2>/dev/null
	tap_result "$rc" "$name: the probes find $have, not $not"
	rc=$(cat "$dir/make.rc")
	for o in "${objs[@]}"; do
		[ -s "$dir/src/$o" ] || rc=1
	done
	! grep -Eq '(warning|error):' "$dir/make.log" || rc=1
	[ "$rc" = 0 ] || tap_diag "$dir/make.log"
	tap_result "$rc" "$name: ${objs[*]} compile with W=1 and -Werror"
}

results rfc HAVE_MIGRATE_COPY_OFFLOAD_RFC HAVE_MIGRATE_COPY_OFFLOAD
# what the rfc build read: the description, not the tree's interface
rc=0
for o in "${objs[@]}"; do
	cmd=$tmp/rfc/src/$(dirname "$o")/.$(basename "$o").cmd
	for h in migrate_copy_offload.h migrate.h; do
		grep -q "$fix/linux/$h" "$cmd" 2>/dev/null ||
			{ echo "# $o did not read $fix/linux/$h"; rc=1; }
	done
done
tap_result $rc "rfc: both files read the RFC's description, ahead of the tree's headers"

results project HAVE_MIGRATE_COPY_OFFLOAD HAVE_MIGRATE_COPY_OFFLOAD_RFC

tap_end
