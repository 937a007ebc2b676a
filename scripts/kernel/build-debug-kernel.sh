#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the DMA benchmark's debug test kernel: Debian's linux-source-6.12
# with kernel/patches/v6.12 applied (DMA_MEMCPY_SG restored, and the DMA
# drivers' memcpy_sg), configured as `make tinyconfig` + a config fragment
# of scripts/kernel/, for QEMU guests:
#   --arch x86_64  debug.config, a q35 PC. The debug flavor also gets
#                  kernel/patches/v6.12-dma-debug (a dma-debug fix its
#                  IOMMU tests need); the bench flavor does not.
#   --arch arm64   arm64.config, cross-built: the ZynqMP ZCU102 board
#                  (xlnx-zcu102) with its GDMA (ZDMA) driver built in
#   --arch arm     arm.config, cross-built: the Exynos4210 SMDKC210 board
#                  with its PL330 driver built in
#
# The result is cached under
#   ${DMA_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dma-bench}/kernels/<key>/
# where <key> hashes the architecture, the source package version, the
# config fragment, the patches' diffs (not their messages) and this script.
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
# goes to stderr.

set -euo pipefail

readonly SRC_PKG=linux-source-6.12
readonly SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
readonly PROGRESS_INTERVAL=30

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
SCRIPT_DIR=$(dirname "$SCRIPT")
REPO_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)
PATCH_ROOT=$REPO_DIR/kernel/patches
FRAGMENT=$SCRIPT_DIR/debug.config
readonly SCRIPT SCRIPT_DIR REPO_DIR PATCH_ROOT

log() { printf '%s\n' "build-debug-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
	cat <<EOF
Usage: ${0##*/} [--arch A] [--flavor debug|bench] [--jobs N] [--force] [--print-key]

Build (or find in the cache) the patched debug kernel and print the
absolute path of its cache directory as the last line on stdout.

  --arch A        x86_64 (default); arm64 (ZynqMP ZCU102, ZDMA built in)
                  or arm (Exynos4210, PL330 built in), cross-built
  --flavor F      debug (default): KASAN, kmemleak, lockdep, DMA-API debug,
                  fault injection (arm: lockdep and DMA-API debug); bench
                  (x86_64 only): the same kernel without them
                  (debug.config overlaid with bench.config)
  --jobs N, -j N  parallel make jobs (default: nproc = $(nproc))
  --force         rebuild even if a complete build is cached
  --print-key     print the cache key and exit
  -h, --help      this help

Cache root: \${DMA_BENCH_CACHE:-\${XDG_CACHE_HOME:-\$HOME/.cache}/dma-bench}
EOF
}

JOBS=$(nproc)
FLAVOR=debug
KARCH=x86_64
FORCE=0
PRINT_KEY=0
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
	DTBS=(xilinx/zynqmp-zcu102-rev1.0.dtb:xilinx/zynqmp-zcu102-rev1.0.dtb)
	;;
arm)
	IMAGE=zImage
	IMAGE_PATH=arch/arm/boot/zImage
	CROSS=arm-linux-gnueabihf-
	CROSS_PKG=gcc-arm-linux-gnueabihf
	FRAGMENT=$SCRIPT_DIR/arm.config
	DTBS=(samsung/exynos4210-smdkv310.dtb:exynos4210-smdkv310.dtb)
	;;
*) die "--arch must be x86_64, arm64 or arm, got '$KARCH'" ;;
esac
readonly KARCH IMAGE IMAGE_PATH CROSS

# The bench flavor: debug.config with bench.config's symbols replaced.
case $FLAVOR in
debug)
	PATCH_DIRS=(v6.12 v6.12-dma-debug)
	;;
bench)
	[[ $KARCH == x86_64 ]] || die "the bench flavor is x86_64 only"
	PATCH_DIRS=(v6.12)
	OVERLAY=$SCRIPT_DIR/bench.config
	FRAGMENT=$(mktemp "${TMPDIR:-/tmp}/dma-bench-bench.XXXXXX.config")
	trap 'rm -f "$FRAGMENT"' EXIT
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

# The installed version of the source package; before it is installed
# (e.g. --print-key on a fresh machine) the version apt would install.
source_version() {
	local v
	v=$(dpkg-query -W -f='${db:Status-Abbrev}' "$SRC_PKG" 2>/dev/null || true)
	if [[ $v == "ii"* ]]; then
		dpkg-query -W -f='${Version}\n' "$SRC_PKG"
		return
	fi
	v=$(apt-cache policy "$SRC_PKG" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[[ -n $v && $v != "(none)" ]] || die "$SRC_PKG is neither installed nor installable"
	printf '%s\n' "$v"
}

compute_key() {
	local f version
	version=$(source_version)
	{
		printf 'dma-bench %s kernel, arch %s\n' "$FLAVOR" "$KARCH"
		printf 'package %s %s\n' "$SRC_PKG" "$version"
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

PREREQ_PKGS=(gcc libc6-dev make flex bison bc libelf-dev libssl-dev cpio xz-utils
	kmod patch util-linux "$SRC_PKG" ${CROSS:+"$CROSS_PKG" device-tree-compiler})

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
readonly NSTAGES=8
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
	setsid make -C "$SRC" O="$BUILD" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE="$CROSS"} "$@" >>"$LOG" 2>&1 &
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
		log "Kconfig did not keep these ${FRAGMENT##*/} settings:"
		printf '    %s\n' "${bad[@]}" >&2
		die "fix scripts/kernel/${FRAGMENT##*/} (missing dependencies or selects)"
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

# --- main --------------------------------------------------------------------

read_series
if ((PRINT_KEY)); then
	compute_key
	exit 0
fi

CACHE_ROOT=${DMA_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dma-bench}
KERNELS=$CACHE_ROOT/kernels
KEY=$(compute_key)
FINAL=$KERNELS/$KEY

if ((!FORCE)) && is_complete "$FINAL"; then
	printf '%s\n' "$FINAL"
	exit 0
fi

T0=$SECONDS
stage "checking build prerequisites"
ensure_packages "${PREREQ_PKGS[@]}"
[[ -f $SRC_TARBALL ]] || die "$SRC_TARBALL is missing (package $SRC_PKG)"
KEY=$(compute_key) # the installed version now, if it was not before
FINAL=$KERNELS/$KEY

mkdir -p "$KERNELS"
KERNELS=$(cd "$KERNELS" && pwd -P)
FINAL=$KERNELS/$KEY
FAILED_LOG=$KERNELS/$KEY.failed.log

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

OUT=$(mktemp -d "$KERNELS/.tmp-$KEY-XXXXXX")
SRC=$OUT/src
BUILD=$OUT/build
LOG=$OUT/build.log
KMAKE_PID=
cleanup() {
	if [[ -n $KMAKE_PID ]]; then
		kill -TERM -- "-$KMAKE_PID" 2>/dev/null || kill -TERM "$KMAKE_PID" 2>/dev/null || true
		wait "$KMAKE_PID" 2>/dev/null || true
	fi
	if [[ -n ${OUT:-} ]]; then
		log "removing the unfinished build $OUT"
		rm -rf "$OUT"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$LOG"
log "building kernel $KEY with $JOBS jobs in $OUT"

stage "extracting $SRC_TARBALL ($SRC_PKG $(source_version))"
mkdir -p "$SRC" "$BUILD"
tar -xf "$SRC_TARBALL" -C "$SRC" --strip-components=1

stage "applying ${#PATCHES[@]} patches from ${PATCH_DIRS[*]/#/kernel/patches/}"
for p in "${PATCHES[@]}"; do
	log "    ${p##*/}"
	patch -d "$SRC" -p1 -F0 -N -s --no-backup-if-mismatch <"$p" >>"$LOG" 2>&1 ||
		die "${p##*/} does not apply cleanly to $SRC_PKG $(source_version)"
done

stage "configuring: tinyconfig + ${FRAGMENT##*/}, olddefconfig"
kmake config tinyconfig
(cd "$SRC" && scripts/kconfig/merge_config.sh -m -O "$BUILD" "$BUILD/.config" "$FRAGMENT") >>"$LOG" 2>&1 ||
	die "merge_config.sh failed (see $LOG)"
kmake config olddefconfig
verify_config "$FRAGMENT" "$BUILD/.config"
if grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$BUILD/.config"; then
	ensure_packages dwarves
fi
log "    $(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$BUILD/.config") options on, all of ${FRAGMENT##*/} kept"

stage "building $IMAGE, modules${DTBS[*]:+ and the device trees}"
kmake build -j"$JOBS" "$IMAGE" modules "${DTBS[@]%%:*}"
log "    $(grep -cE '^  (CC|AS|HOSTCC|LD|AR)( \[M\])? ' "$LOG") objects built," \
	"$(grep -c 'warning:' "$LOG" || true) compiler warnings"

stage "installing modules"
kmake modules_install INSTALL_MOD_PATH="$OUT/modules" modules_install
make -s -C "$SRC" O="$BUILD" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE="$CROSS"} kernelrelease >"$OUT/release"
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
	printf 'package=%s %s\n' "$SRC_PKG" "$(source_version)"
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
