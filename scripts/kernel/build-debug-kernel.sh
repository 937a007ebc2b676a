#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the DMA benchmark's debug test kernel: Debian's linux-source-7.3
# (KERNEL_SERIES of scripts/lib.sh; from trixie-backports, downloaded into
# the cache by linux_source_tarball) with kernel/patches/v7.3 applied
# (DMA_MEMCPY_SG restored, and the DMA drivers' memcpy_sg), configured as
# `make tinyconfig` + a config fragment of scripts/kernel/, for QEMU guests:
#   --arch x86_64  debug.config, a q35 PC. The debug flavor also gets
#                  kernel/patches/v7.3-dma-debug (a dma-debug fix its
#                  IOMMU tests need); the bench flavor does not. Both
#                  get kernel/patches/v7.3-migrate (page migration's
#                  copy offload hook, CONFIG_MIGRATION_COPY_OFFLOAD).
#   --arch arm64   arm64.config, cross-built: the ZynqMP ZCU102 board
#                  (xlnx-zcu102) with its GDMA (ZDMA) driver built in,
#                  which boots on QEMU's virt machine with MTE too; it
#                  gets kernel/patches/v7.3-migrate as well
#   --arch arm     arm.config, cross-built: the Exynos4210 SMDKC210 board
#                  with its PL330 driver built in
#
# The result is cached under
#   ${DMA_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dma-bench}/kernels/<key>/
# where <key> hashes the architecture, the source package version, the
# config fragment, the series files, the patches' diffs (not their
# messages) and this script.
# Layout of <key>/ (other scripts rely on it):
#   bzImage    the kernel image (arm64: Image, arm: zImage)
#   dtbs/      arm64 and arm: the board's device tree, at the path Debian's
#              packages have it (xilinx/zynqmp-zcu102-rev1.0.dtb,
#              exynos4210-smdkv310.dtb)
#   build/     the O= build tree (.config, Module.symvers, generated
#              headers): make -C <key>/build M=/dir modules
#   src/       the patched source tree that build/ refers to (relatively)
#   modules/   make modules_install INSTALL_MOD_PATH=<key>/modules, e.g.
#              modules/lib/modules/<release>/kernel/drivers/dma/dmatest.ko
#   release    `make kernelrelease`
#   build.log  the full make output
#   stamp      written last: the build is complete
# The last line on stdout is the absolute path of <key>/; everything else
# goes to stderr. With --config-only nothing is built: the configuration
# is made and checked in a scratch tree, and the last line is the path of
# the resulting .config, kept as <key>.config beside the cache entries.

set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
SCRIPT_DIR=$(dirname "$SCRIPT")
REPO_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib.sh
. "$REPO_DIR/scripts/lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=build-debug-kernel

readonly SRC_SERIES=$KERNEL_SERIES
readonly SRC_PKG=linux-source-$SRC_SERIES
readonly PROGRESS_INTERVAL=30

PATCH_ROOT=$REPO_DIR/kernel/patches
FRAGMENT=$SCRIPT_DIR/debug.config
FRAGMENT_NAME=debug.config
readonly SCRIPT SCRIPT_DIR REPO_DIR PATCH_ROOT

log() { printf '%s\n' "build-debug-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
	cat <<EOF
Usage: ${0##*/} [--arch A] [--flavor debug|bench] [--jobs N] [--force]
       [--print-key | --config-only]

Build (or find in the cache) the patched debug kernel ($SRC_PKG with
kernel/patches/v$SRC_SERIES) and print the absolute path of its cache
directory as the last line on stdout.

  --arch A        x86_64 (default); arm64 (ZynqMP ZCU102, ZDMA built in)
                  or arm (Exynos4210, PL330 built in), cross-built
  --flavor F      debug (default): KASAN, kmemleak, lockdep, DMA-API debug,
                  fault injection (arm: lockdep and DMA-API debug); bench
                  (x86_64 only): the same kernel without them
                  (debug.config overlaid with bench.config)
  --jobs N, -j N  parallel make jobs (default: nproc = $(nproc))
  --force         rebuild even if a complete build is cached
  --print-key     print the cache key and exit
  --config-only   apply the patches and make the configuration only
                  (tinyconfig + the fragment, olddefconfig, checked) in a
                  scratch tree; print the path of the .config it kept
  -h, --help      this help

Cache root: \${DMA_BENCH_CACHE:-\${XDG_CACHE_HOME:-\$HOME/.cache}/dma-bench}
EOF
}

JOBS=$(nproc)
FLAVOR=debug
KARCH=x86_64
FORCE=0
PRINT_KEY=0
CONFIG_ONLY=0
while (($#)); do
	case $1 in
	--jobs | -j)
		(($# >= 2)) || die "$1 needs an argument"
		JOBS=$2
		shift 2
		;;
	--jobs=*)
		JOBS=${1#*=}
		shift
		;;
	--flavor)
		(($# >= 2)) || die "$1 needs an argument"
		FLAVOR=$2
		shift 2
		;;
	--arch)
		(($# >= 2)) || die "$1 needs an argument"
		KARCH=$2
		shift 2
		;;
	--force)
		FORCE=1
		shift
		;;
	--print-key)
		PRINT_KEY=1
		shift
		;;
	--config-only)
		CONFIG_ONLY=1
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		die "unknown argument: $1"
		;;
	esac
done
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive integer, got '$JOBS'"
((!PRINT_KEY || !CONFIG_ONLY)) || die "--print-key and --config-only exclude each other"

# What each architecture builds: the image, the cross compiler (with its
# package) and the board's device trees (make target:path under dtbs/).
CROSS=
DTBS=()
case $KARCH in
x86_64)
	IMAGE=bzImage
	IMAGE_PATH=arch/x86/boot/bzImage
	;;
arm64)
	IMAGE=Image
	IMAGE_PATH=arch/arm64/boot/Image
	CROSS=aarch64-linux-gnu-
	CROSS_PKG=gcc-aarch64-linux-gnu
	FRAGMENT=$SCRIPT_DIR/arm64.config
	FRAGMENT_NAME=arm64.config
	DTBS=(xilinx/zynqmp-zcu102-rev1.0.dtb:xilinx/zynqmp-zcu102-rev1.0.dtb)
	;;
arm)
	IMAGE=zImage
	IMAGE_PATH=arch/arm/boot/zImage
	CROSS=arm-linux-gnueabihf-
	CROSS_PKG=gcc-arm-linux-gnueabihf
	FRAGMENT=$SCRIPT_DIR/arm.config
	FRAGMENT_NAME=arm.config
	DTBS=(samsung/exynos4210-smdkv310.dtb:exynos4210-smdkv310.dtb)
	;;
*) die "--arch must be x86_64, arm64 or arm, got '$KARCH'" ;;
esac
readonly KARCH IMAGE IMAGE_PATH CROSS

# The bench flavor: debug.config with bench.config's symbols replaced.
# BENCH_FRAGMENT: that temporary file, removed on exit.
BENCH_FRAGMENT=
case $FLAVOR in
debug)
	PATCH_DIRS=("v$SRC_SERIES" "v$SRC_SERIES-dma-debug")
	# the migration copy offload hook: 64-bit only (its Kconfig
	# depends on 64BIT), so not on the arm board
	[[ $KARCH == arm ]] || PATCH_DIRS+=("v$SRC_SERIES-migrate")
	;;
bench)
	[[ $KARCH == x86_64 ]] || die "the bench flavor is x86_64 only"
	PATCH_DIRS=("v$SRC_SERIES" "v$SRC_SERIES-migrate")
	OVERLAY=$SCRIPT_DIR/bench.config
	FRAGMENT=$(mktemp "${TMPDIR:-/tmp}/dma-bench-bench.XXXXXX.config")
	FRAGMENT_NAME="debug.config + bench.config"
	BENCH_FRAGMENT=$FRAGMENT
	trap 'rm -f "$BENCH_FRAGMENT"' EXIT
	syms=$(sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' "$OVERLAY" | paste -sd'|')
	{ grep -vE "^(# )?($syms)[= ]" "$SCRIPT_DIR/debug.config"; cat "$OVERLAY"; } >"$FRAGMENT"
	;;
*) die "--flavor must be debug or bench, got '$FLAVOR'" ;;
esac

# Keep the caller's kbuild/make settings out of the build.
unset ARCH CROSS_COMPILE O KBUILD_OUTPUT KBUILD_EXTMOD M KCONFIG_CONFIG \
	LOCALVERSION MAKEFLAGS MFLAGS MAKELEVEL CC LD KCFLAGS KCPPFLAGS \
	INSTALL_MOD_PATH INSTALL_MOD_STRIP
export LC_ALL=C KBUILD_BUILD_USER=dma-bench KBUILD_BUILD_HOST=dma-bench

# Patches, in the order of their series file.
# PATCH_DIRS: the series to apply, in order (set by the flavor)
PATCHES=()
SERIES=()
read_series() {
	local dir line
	for dir in "${PATCH_DIRS[@]}"; do
		dir=$PATCH_ROOT/$dir
		[[ -f $dir/series ]] || die "missing $dir/series"
		SERIES+=("$dir/series")
		while IFS= read -r line || [[ -n $line ]]; do
			line=${line%%#*}
			line=${line//[[:space:]]/}
			[[ -n $line ]] || continue
			[[ -f $dir/$line ]] || die "series lists $line, which is not in $dir"
			PATCHES+=("$dir/$line")
		done <"$dir/series"
	done
	((${#PATCHES[@]})) || die "${PATCH_DIRS[*]}: the series list no patch"
}

# SRC_TARBALL and SOURCE_VERSION: the source tarball the build uses and
# its Debian version (scripts/lib.sh: the installed package's, else the
# newest in the cache, else downloaded there with the project's apt
# sources: once, --print-key on a fresh machine included).
resolve_source() {
	SRC_TARBALL=$(linux_source_tarball "$SRC_SERIES") || die "no $SRC_PKG tarball (see above)"
	[[ -f $SRC_TARBALL ]] || die "$SRC_TARBALL does not exist"
	SOURCE_VERSION=$(linux_source_version "$SRC_SERIES") || die "no version for $SRC_TARBALL"
	[[ -n $SOURCE_VERSION ]] || die "no version for $SRC_TARBALL"
}

compute_key() {
	local f
	{
		printf 'dma-bench %s kernel, arch %s\n' "$FLAVOR" "$KARCH"
		printf 'package %s %s\n' "$SRC_PKG" "$SOURCE_VERSION"
		printf 'fragment %s %s\n' "$FLAVOR" "$(sha256sum <"$FRAGMENT" | cut -d' ' -f1)"
		for f in "${SERIES[@]}" "$SCRIPT"; do
			printf '%s %s\n' "${f#"$REPO_DIR"/}" "$(sha256sum <"$f" | cut -d' ' -f1)"
		done
		# A patch's code, not its commit message or diffstat: rewording a
		# message is not a reason to rebuild the kernel.
		for f in "${PATCHES[@]}"; do
			printf '%s %s\n' "${f##*/}" \
				"$(sed -n '/^diff --git /,$p' "$f" | sha256sum | cut -d' ' -f1)"
		done
	} | sha256sum | cut -c1-16
}

is_complete() {
	local d=$1
	[[ -f $d/stamp && -f $d/$IMAGE && -s $d/release && -f $d/build/.config &&
		-f $d/build/Module.symvers && -f $d/src/Makefile && -d $d/modules/lib/modules ]]
}

# --- prerequisites -----------------------------------------------------------

# The source package is not among them: scripts/lib.sh downloads it with
# the project's apt sources (signed by Debian's archive keys).
PREREQ_PKGS=(gcc libc6-dev make flex bison bc libelf-dev libssl-dev cpio xz-utils
	kmod patch util-linux debian-archive-keyring ccache
	${CROSS:+"$CROSS_PKG" device-tree-compiler})

missing_packages() {
	local p s
	for p in "$@"; do
		s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		[[ $s == "ii"* ]] || printf '%s\n' "$p"
	done
}

ensure_packages() {
	local -a missing
	mapfile -t missing < <(missing_packages "$@")
	((${#missing[@]})) || return 0
	if ((EUID != 0)); then
		log "missing build prerequisites; install them with:"
		log "  sudo apt-get install -y ${missing[*]}"
		exit 1
	fi
	log "installing missing prerequisites: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		apt-get update >&2
		apt-get install -y --no-install-recommends "${missing[@]}" >&2
	fi
	mapfile -t missing < <(missing_packages "$@")
	((${#missing[@]} == 0)) || die "still missing after apt-get: ${missing[*]}"
}

# --- build helpers -----------------------------------------------------------

STAGE=0
NSTAGES=8
((!CONFIG_ONLY)) || NSTAGES=4
readonly NSTAGES
stage() {
	STAGE=$((STAGE + 1))
	log "[$STAGE/$NSTAGES] $* ($(elapsed))"
}

elapsed() {
	local s=$((SECONDS - T0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# Run make with its output in $LOG. While it runs, print a line every
# $PROGRESS_INTERVAL seconds with the number of objects compiled so far; on
# failure, print the first errors and the end of the log (bounded).
kmake() {
	local what=$1 pid rc=0 last=$SECONDS n
	shift
	printf '\n### make %s\n' "$*" >>"$LOG"
	# A session of its own, so that cleanup can stop make and its compilers.
	setsid make -C "$SRC" O="$BUILD" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE="$CROSS"} \
		"${CCACHE_CC[@]}" "$@" >>"$LOG" 2>&1 &
	pid=$!
	KMAKE_PID=$pid
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		if ((SECONDS - last >= PROGRESS_INTERVAL)); then
			last=$SECONDS
			n=$(grep -cE '^  (CC|AS|HOSTCC|LD|AR)( \[M\])? ' "$LOG" || true)
			log "    $what: $n objects built so far ($(elapsed))"
		fi
	done
	wait "$pid" || rc=$?
	KMAKE_PID=
	if ((rc != 0)); then
		log "make $* failed (exit $rc); first errors:"
		grep -E -m 40 '(error|Error [0-9]+|\*\*\*)' "$LOG" | sed 's/^/    /' >&2 || true
		log "last lines of the log:"
		tail -n 25 "$LOG" | sed 's/^/    /' >&2
		cp "$LOG" "$FAILED_LOG" 2>/dev/null && log "full log: $FAILED_LOG"
		exit 1
	fi
}

# Every line of the fragment must be in .config as written. A "not set"
# line is also satisfied when the symbol is absent (its dependencies are
# off, so it is off).
verify_config() {
	local fragment=$1 config=$2 line sym bad=()
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			grep -qxF -- "$line" "$config" ||
				bad+=("$line (got: $(grep -E "^(# )?${sym}[= ]" "$config" || echo 'absent: dependencies not met'))")
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			if grep -qE "^$sym=" "$config"; then
				bad+=("$line (got: $(grep -E "^$sym=" "$config"))")
			fi
		fi
	done <"$fragment"
	if ((${#bad[@]})); then
		log "Kconfig did not keep these $FRAGMENT_NAME settings:"
		printf '    %s\n' "${bad[@]}" >&2
		die "fix scripts/kernel/$FRAGMENT_NAME (missing dependencies, selects, or symbols that $SRC_PKG renamed or removed)"
	fi
}

# The O= tree points at the source tree with absolute paths; make those
# relative so that the tree still works after the rename into place.
make_relocatable() {
	local rel
	cat >"$BUILD/Makefile" <<EOF
# Generated by scripts/kernel/build-debug-kernel.sh: an $KARCH build tree
# whose source tree is ../src. Like Debian's header packages, default an
# empty ARCH (e.g. a wrapper's "ARCH=\$(ARCH)") to this tree's architecture,
# and an empty CROSS_COMPILE to the cross compiler it was built with.
ifeq (\$(ARCH),)
override ARCH := $KARCH
endif
ifeq (\$(CROSS_COMPILE),)
override CROSS_COMPILE := $CROSS
endif
# As the Makefile kbuild writes here does: since 7.x, without it the
# source tree's Makefile takes the source tree for the output tree.
export KBUILD_OUTPUT := \$(CURDIR)
include ../src/Makefile
EOF
	ln -sfn ../src "$BUILD/source"
	for rel in "$OUT"/modules/lib/modules/*; do
		[[ -e $rel/build || -L $rel/build ]] && ln -sfn ../../../../build "$rel/build"
	done
	return 0
}

# Build a trivial out-of-tree module against the finished tree. It uses the
# restored API, so it also proves that the patches are in the headers.
selftest_module() {
	local d=$OUT/.selftest
	mkdir -p "$d"
	cat >"$d/dmabench_selftest.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
#include <linux/dmaengine.h>

static struct dma_async_tx_descriptor *(*prep)(struct dma_chan *chan,
					       struct scatterlist *dst_sg,
					       unsigned int dst_nents,
					       struct scatterlist *src_sg,
					       unsigned int src_nents,
					       unsigned long flags);

static int __init selftest_init(void)
{
	BUILD_BUG_ON(DMA_MEMCPY_SG != DMA_MEMCPY + 1);
	prep = dmaengine_prep_dma_memcpy_sg;
	return prep ? 0 : -EINVAL;
}
module_init(selftest_init);
MODULE_DESCRIPTION("build check for the DMA bench debug kernel");
MODULE_LICENSE("GPL");
EOF
	echo 'obj-m += dmabench_selftest.o' >"$d/Kbuild"
	if ! ARCH='' CROSS_COMPILE='' make -C "$BUILD" M="$d" modules >>"$LOG" 2>&1 ||
		[[ ! -f $d/dmabench_selftest.ko ]]; then
		tail -n 25 "$LOG" | sed 's/^/    /' >&2
		cp "$LOG" "$FAILED_LOG" 2>/dev/null || true
		die "an out-of-tree module does not build against $BUILD (log: $FAILED_LOG)"
	fi
	rm -rf "$d"
}

# ccache_hits: "HITS MISSES" of ccache's statistics so far
ccache_hits() {
	ccache --print-stats 2>/dev/null | awk '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { print h + 0, m + 0 }'
}

# ccache_hits_since "HITS MISSES": what this build found in the cache
ccache_hits_since() {
	local h0 m0 h1 m1
	read -r h0 m0 <<<"$1"
	read -r h1 m1 < <(ccache_hits)
	printf '%d objects from the cache, %d compiled\n' $((h1 - h0)) $((m1 - m0))
}

# --- main --------------------------------------------------------------------

read_series
resolve_source
if ((PRINT_KEY)); then
	compute_key
	exit 0
fi

KERNELS=$DMA_BENCH_CACHE/kernels
KEY=$(compute_key)
FINAL=$KERNELS/$KEY

if ((!FORCE && !CONFIG_ONLY)) && is_complete "$FINAL"; then
	printf '%s\n' "$FINAL"
	exit 0
fi

T0=$SECONDS
stage "checking build prerequisites"
ensure_packages "${PREREQ_PKGS[@]}"

mkdir -p "$KERNELS"
KERNELS=$(cd "$KERNELS" && pwd -P)
FINAL=$KERNELS/$KEY
FAILED_LOG=$KERNELS/$KEY.failed.log

if ((CONFIG_ONLY)); then
	# A scratch tree of its own, outside the key's lock and left-overs: a
	# build of the same key may run meanwhile.
	OUT=$(mktemp -d "$KERNELS/.config-$KEY-XXXXXX")
	FAILED_LOG=$KERNELS/$KEY.config.failed.log
else
	# One builder per key; a second one waits and then finds the result.
	exec 9>"$KERNELS/.$KEY.lock"
	if ! flock -n 9; then
		log "another build of $KEY is running; waiting for it"
		flock 9
	fi
	if ((!FORCE)) && is_complete "$FINAL"; then
		printf '%s\n' "$FINAL"
		exit 0
	fi
	# Left-overs of interrupted builds of this key (we hold its lock).
	rm -rf "$KERNELS/.tmp-$KEY-"*

	avail_kb=$(df -Pk "$KERNELS" | awk 'NR == 2 { print $4 }')
	((avail_kb > 6 * 1024 * 1024)) ||
		log "warning: only $((avail_kb / 1024)) MiB free in $KERNELS; the build needs about 4 GiB"
	# A tree at the same path for every build of this architecture and
	# flavor, so that ccache finds the objects of the last one (the paths
	# are in what it hashes): a patch edit recompiles what it touches.
	# One such build at a time; the key's own lock is taken above.
	exec 8>"$KERNELS/.build-$KARCH-$FLAVOR.lock"
	if ! flock -n 8; then
		log "another $KARCH $FLAVOR kernel is building; waiting for it"
		flock 8
	fi
	OUT=$KERNELS/.build-$KARCH-$FLAVOR
	rm -rf "$OUT"
	mkdir -p "$OUT"
fi

# ccache (Debian's), kept beside the kernels: the compiler for every make
# of the tree, so that the configuration sees the one the build uses.
CCACHE_CC=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$DMA_BENCH_CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	CCACHE_CC=(CC="ccache ${CROSS}gcc")
fi

SRC=$OUT/src
BUILD=$OUT/build
LOG=$OUT/build.log
KMAKE_PID=
cleanup() {
	local rc=$?
	if [[ -n $KMAKE_PID ]]; then
		kill -TERM -- "-$KMAKE_PID" 2>/dev/null || kill -TERM "$KMAKE_PID" 2>/dev/null || true
		wait "$KMAKE_PID" 2>/dev/null || true
	fi
	if [[ -n ${OUT:-} ]]; then
		if ((rc != 0)) && [[ -s $LOG && ! -f $FAILED_LOG ]]; then
			cp "$LOG" "$FAILED_LOG" 2>/dev/null && log "full log: $FAILED_LOG"
		fi
		if ((CONFIG_ONLY)); then
			log "removing the scratch tree $OUT"
		else
			log "removing the unfinished build $OUT"
		fi
		rm -rf "$OUT"
	fi
	[[ -z $BENCH_FRAGMENT ]] || rm -f "$BENCH_FRAGMENT"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$LOG"
rm -f "$FAILED_LOG"
if ((CONFIG_ONLY)); then
	log "configuring kernel $KEY in $OUT (--config-only)"
else
	log "building kernel $KEY with $JOBS jobs in $OUT"
fi

stage "extracting $SRC_TARBALL ($SRC_PKG $SOURCE_VERSION)"
mkdir -p "$SRC" "$BUILD"
tar -xf "$SRC_TARBALL" -C "$SRC" --strip-components=1

stage "applying ${#PATCHES[@]} patches from ${PATCH_DIRS[*]/#/kernel/patches/}"
for p in "${PATCHES[@]}"; do
	log "    ${p##*/}"
	patch -d "$SRC" -p1 -F0 -N -s --no-backup-if-mismatch <"$p" >>"$LOG" 2>&1 ||
		die "${p##*/} does not apply cleanly to $SRC_PKG $SOURCE_VERSION"
done

stage "configuring: tinyconfig + $FRAGMENT_NAME, olddefconfig"
kmake config tinyconfig
(cd "$SRC" && scripts/kconfig/merge_config.sh -m -O "$BUILD" "$BUILD/.config" "$FRAGMENT") >>"$LOG" 2>&1 ||
	die "merge_config.sh failed"
kmake config olddefconfig
verify_config "$FRAGMENT" "$BUILD/.config"
if grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$BUILD/.config"; then
	ensure_packages dwarves
fi
log "    $(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$BUILD/.config") options on, all of $FRAGMENT_NAME kept"
if ((CONFIG_ONLY)); then
	cp "$BUILD/.config" "$KERNELS/$KEY.config"
	rm -f "$FAILED_LOG"
	rm -rf "$OUT"
	OUT=
	log "done in $(elapsed): the configuration is consistent; nothing was built"
	printf '%s\n' "$KERNELS/$KEY.config"
	exit 0
fi

stage "building $IMAGE, modules${DTBS[*]:+ and the device trees}"
((${#CCACHE_CC[@]})) && ccache_before=$(ccache_hits)
kmake build -j"$JOBS" "$IMAGE" modules "${DTBS[@]%%:*}"
((${#CCACHE_CC[@]})) && log "    ccache: $(ccache_hits_since "$ccache_before")"
log "    $(grep -cE '^  (CC|AS|HOSTCC|LD|AR)( \[M\])? ' "$LOG") objects built," \
	"$(grep -c 'warning:' "$LOG" || true) compiler warnings"

stage "installing modules"
kmake modules_install INSTALL_MOD_PATH="$OUT/modules" modules_install
make -s -C "$SRC" O="$BUILD" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE="$CROSS"} \
	"${CCACHE_CC[@]}" kernelrelease >"$OUT/release"
release=$(<"$OUT/release")
[[ -f $OUT/modules/lib/modules/$release/kernel/drivers/dma/dmatest.ko ]] ||
	die "dmatest.ko is not under modules/lib/modules/$release"
cp "$BUILD/$IMAGE_PATH" "$OUT/$IMAGE"
for dtb in "${DTBS[@]}"; do
	mkdir -p "$(dirname "$OUT/dtbs/${dtb#*:}")"
	cp "$BUILD/arch/$KARCH/boot/dts/${dtb%%:*}" "$OUT/dtbs/${dtb#*:}"
done

stage "checking an out-of-tree module build against the tree"
make_relocatable
selftest_module

stage "publishing $FINAL"
{
	printf 'key=%s\n' "$KEY"
	printf 'package=%s %s\n' "$SRC_PKG" "$SOURCE_VERSION"
	printf 'release=%s\n' "$release"
	printf 'built=%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf 'build_seconds=%s\n' "$((SECONDS - T0))"
} >"$OUT/stamp.tmp"
mv "$OUT/stamp.tmp" "$OUT/stamp"
chmod 0755 "$OUT"
if [[ -e $FINAL ]]; then
	old=$(mktemp -d "$KERNELS/.old-$KEY-XXXXXX")
	mv -T "$FINAL" "$old/k"
	mv -T "$OUT" "$FINAL"
	rm -rf "$old"
else
	mv -T "$OUT" "$FINAL"
fi
OUT=
rm -f "$FAILED_LOG"
log "done in $(elapsed): $release"
printf '%s\n' "$FINAL"
