#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a test VM with the project's modules, tool and guest tests, run one
# command in it as root, and bring its output and exit status back.
#
# usage: scripts/vm/run.sh [options] [--] GUEST_COMMAND...
#   -m, --machine NAME   a file in scripts/vm/machines/ (default: x86)
#   -c, --dma CONFIG     DMA configuration of the machine: direct, swiotlb,
#                        iommu (default: direct)
#   -t, --timeout SEC    kill the VM after SEC seconds (default: 600)
#   -a, --append ARGS    extra kernel command line
#   -M, --memory SIZE    guest RAM instead of the machine's (QEMU -m: 12G)
#   -f, --file FILE      copy FILE into the guest's /opt/dma-bench (repeatable)
#   -q, --quiet          no progress lines on stderr
#
# The guest command runs in /opt/dma-bench (tools/testing/guest is there
# as tests/) with PROJECT, TOOL, MODDIR and DMA_BENCH_CONFIG set. Its
# stdout and stderr stream to our stdout as it runs; the kernel log goes
# to build/vm/<machine>-<config>/console.log and its tail is printed when
# the command fails. Exit status: the guest
# command's, 124 on timeout, 125 when the VM died before finishing.
# DMA_BENCH_KERNEL_DIR=DIR boots the kernel cache dir DIR (the layout of
# scripts/kernel/build-debug-kernel.sh's) instead of the one that script
# returns, on a machine of a debug or bench kernel; the modules are built
# for it apart (scripts/bench-hook-off.sh's hook-off kernel).
# DMA_BENCH_QEMU_ARGS="ARGS" adds ARGS to QEMU's command line (words; e.g.
# scripts/bench-cachesync.sh's -plugin of the cache-maintenance counter).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

machine=x86
dma=direct
timeout=600
extra_append=
quiet=
memory=
files=()

while [ $# -gt 0 ]; do
	case $1 in
	-m|--machine) machine=$2; shift 2 ;;
	-c|--dma) dma=$2; shift 2 ;;
	-t|--timeout) timeout=$2; shift 2 ;;
	-a|--append) extra_append="$extra_append $2"; shift 2 ;;
	-M|--memory) memory=$2; shift 2 ;;
	-f|--file) files+=("$2"); shift 2 ;;
	-q|--quiet) quiet=1; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "no guest command given (see --help)"
for f in ${files[@]+"${files[@]}"}; do
	[ -f "$f" ] || die "--file $f: no such file"
	case $(basename "$f") in
	bin|modules|tests|cmd) die "--file $f: the guest has its own $(basename "$f")" ;;
	esac
done

conf=$DMA_BENCH_TOP/scripts/vm/machines/$machine.conf
[ -f "$conf" ] || die "no machine '$machine': $(ls "$DMA_BENCH_TOP/scripts/vm/machines" | sed 's/\.conf//' | tr '\n' ' ')"
# shellcheck source=/dev/null
. "$conf"
if [ -n "$memory" ]; then
	[[ $memory =~ ^[0-9]+[MG]$ ]] || die "--memory $memory: give a size like 4096M or 12G"
	[[ " $VM_QEMU_ARGS " == *" -m "* ]] ||
		die "machine $machine sets no -m to replace with --memory"
	VM_QEMU_ARGS=$(sed -E "s/(^| )-m [^ ]+/\1-m $memory/" <<<"$VM_QEMU_ARGS")
fi
case " $VM_DMA_CONFIGS " in
*" $dma "*) ;;
*) die "machine $machine has no DMA configuration '$dma' (has: $VM_DMA_CONFIGS)" ;;
esac

progress() {
	[ -n "$quiet" ] || say "$machine/$dma: $*"
}

# Each boot has a directory of its own: several may run at once. It is
# removed when the command succeeds, and kept (with its logs) otherwise.
mkdir -p "$DMA_BENCH_BUILD/vm"
work=$(mktemp -d "$DMA_BENCH_BUILD/vm/$machine-$dma.XXXXXX")
kbuild=$DMA_BENCH_BUILD/kernels/$machine
mkdir -p "$kbuild"

# --- the kernel: its image, its build tree and its own modules ------------
case $VM_KERNEL_KIND in
stock)
	release=$(stock_kernel_release) ||
		die "no Debian 6.12 kernel in /boot: scripts/setup.sh installs linux-image-6.12-amd64 and linux-headers-6.12-amd64"
	kernel=/boot/vmlinuz-$release
	kdir=/lib/modules/$release/build
	kmods=/lib/modules/$release
	;;
debian)
	# another Debian release's kernel of this architecture (7.3 from
	# trixie-backports), unpacked into the cache, never installed
	host_kernel=$("$DMA_BENCH_TOP/scripts/vm/debian-kernel.sh" "$VM_DEBIAN_RELEASE" \
		      "$VM_DEBIAN_VERSION" | tail -n 1)
	release=$(cat "$host_kernel/release")
	kernel=$host_kernel/vmlinuz
	kdir=$(readlink -f "$host_kernel/kdir")
	kmods=$host_kernel/modules
	;;
debug|bench)
	if [ -n "${DMA_BENCH_KERNEL_DIR:-}" ]; then
		kdir_root=$(cd "$DMA_BENCH_KERNEL_DIR" && pwd -P) ||
			die "DMA_BENCH_KERNEL_DIR: no directory $DMA_BENCH_KERNEL_DIR"
		[ -f "$kdir_root/stamp" ] ||
			die "DMA_BENCH_KERNEL_DIR: $kdir_root has no stamp (not a complete kernel)"
		progress "the kernel of DMA_BENCH_KERNEL_DIR=$kdir_root"
		kbuild=$kbuild-$(basename "$kdir_root")
		mkdir -p "$kbuild"
	else
		kdir_root=$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" \
			--arch "$VM_ARCH" --flavor "$VM_KERNEL_KIND" | tail -n 1)
	fi
	release=$(cat "$kdir_root/release")
	for kernel in "$kdir_root"/bzImage "$kdir_root"/Image "$kdir_root"/zImage; do
		[ ! -f "$kernel" ] || break
	done
	kdir=$kdir_root/build
	kmods=$kdir_root/modules/lib/modules/$release
	dtbs=$kdir_root/dtbs
	if [ -n "${VM_CROSS_COMPILE:-}" ]; then
		# a board of another architecture: its static busybox is
		# Debian's, fetched with its stock kernel
		foreign=$("$DMA_BENCH_TOP/scripts/vm/foreign-kernel.sh" \
			  "$VM_DEBIAN_ARCH" "$VM_DEBIAN_FLAVOUR" | tail -n 1)
		guest_busybox=$foreign/busybox
		export ARCH=$VM_KERNEL_ARCH CROSS_COMPILE=$VM_CROSS_COMPILE
	fi
	;;
debian-foreign)
	# Debian's kernel of another architecture, unpacked into the cache;
	# everything for the guest is cross-built with its headers
	foreign=$("$DMA_BENCH_TOP/scripts/vm/foreign-kernel.sh" "$VM_DEBIAN_ARCH" \
		  "$VM_DEBIAN_FLAVOUR" | tail -n 1)
	release=$(cat "$foreign/release")
	kernel=$foreign/vmlinuz
	kdir=$(readlink -f "$foreign/kdir")
	kmods=$foreign/modules
	dtbs=$foreign/dtbs
	srcdir=$foreign/src
	guest_busybox=$foreign/busybox
	export ARCH=$VM_KERNEL_ARCH CROSS_COMPILE=$VM_CROSS_COMPILE
	;;
*)
	die "machine $machine: unknown VM_KERNEL_KIND '$VM_KERNEL_KIND'"
	;;
esac
[ -r "$kernel" ] || die "cannot read $kernel (run as root, or chmod a+r it)"
[ -f "$kdir/Makefile" ] || die "no build tree at $kdir: apt-get install linux-headers-$release"

# --- what goes into the guest ---------------------------------------------
# builds are shared between boots (and the tool's with the checkout)
exec 9>"$DMA_BENCH_BUILD/.build-lock"
flock 9
# VM_NO_MODULES=1: a kernel whose compiler the host lacks (Debian's 7.3
# is gcc-14's): the guest runs without the project's modules
if [ -z "${VM_NO_MODULES:-}" ]; then
	progress "building modules for $release"
	"$DMA_BENCH_TOP/scripts/build-modules.sh" "$kdir" "$kbuild/modules"
fi

root=$work/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt} "$root/opt/dma-bench"/{bin,modules,tests}
[ -n "${VM_NO_MODULES:-}" ] ||
	cp "$kbuild/modules/"*.ko "$kbuild/modules/probes.h" "$root/opt/dma-bench/modules/"
# the benchmark module of the first results layout (a1193e4), for the
# ABI suite only (tools/testing/guest/abi.sh; a minute's build, then kept)
case " $* " in
*" abi "*)
	if [ -z "${VM_NO_MODULES:-}" ]; then
		progress "building a1193e4's benchmark module"
		"$DMA_BENCH_TOP/scripts/build-old-module.sh" a1193e4 "$kdir" \
			"$kbuild/old-module"
		mkdir -p "$root/opt/dma-bench/modules/ver1"
		cp "$kbuild/old-module/dma_map_benchmark.ko" \
			"$root/opt/dma-bench/modules/ver1/"
	fi
	;;
esac

# the kernel's own dmatest: Debian does not build it; the debug kernel does.
# Built from the sources of the guest kernel's own series (the stock
# kernel's 6.12, say): a foreign kernel brings them, else Debian's
# linux-source of that series.
dmatest=$kmods/kernel/drivers/dma/dmatest.ko
if [ -z "${VM_NO_MODULES:-}" ] && [ ! -f "$dmatest" ] &&
   [ -x "$DMA_BENCH_TOP/scripts/build-dmatest.sh" ]; then
	dmatest_src=${srcdir:-}
	if [ -z "$dmatest_src" ]; then
		[[ $release =~ ^([0-9]+\.[0-9]+) ]] || die "cannot tell the series of kernel $release"
		dmatest_src=$(linux_source_dir "${BASH_REMATCH[1]}")
	fi
	"$DMA_BENCH_TOP/scripts/build-dmatest.sh" "$kdir" "$dmatest_src" "$kbuild/dmatest" >/dev/null
	dmatest=$kbuild/dmatest/dmatest.ko
fi
[ -f "$dmatest" ] && cp "$dmatest" "$root/opt/dma-bench/modules/"

# drivers the kernel lacks, built out of tree (scripts/build-*.sh KDIR
# SRCDIR OUTDIR); the guest tests load them
for builder in ${VM_MODULE_BUILDERS:-}; do
	progress "building $builder"
	ko=$("$DMA_BENCH_TOP/scripts/$builder" "$kdir" "$srcdir" "$kbuild/extra" | tail -n 1)
	cp "$ko" "$root/opt/dma-bench/modules/"
done

progress "building the tool (static)"
# DMA_BENCH_TOOL: a static tool built elsewhere (e.g. from another commit)
if [ -n "${DMA_BENCH_TOOL:-}" ]; then
	cp "$DMA_BENCH_TOOL" "$root/opt/dma-bench/bin/dma_map_benchmark"
elif [ -n "${VM_CROSS_COMPILE:-}" ]; then
	# in a copy of the sources: the checkout's objects stay the host's
	tool=$kbuild/tool
	mkdir -p "$tool/tools/dma" "$tool/uapi"
	cp -a -u "$DMA_BENCH_TOP"/tools/dma/*.[ch] "$DMA_BENCH_TOP/tools/dma/Makefile" \
		"$tool/tools/dma/"
	cp -a -u "$DMA_BENCH_TOP/uapi/." "$tool/uapi/"
	make -s -C "$tool/tools/dma" STATIC=1 CC="$VM_TOOL_CC" \
		VERSION="$(git -C "$DMA_BENCH_TOP" describe --always --dirty 2>/dev/null || echo unknown)" >&2
	cp "$tool/tools/dma/dma_map_benchmark" "$root/opt/dma-bench/bin/"
else
	make -s -C "$DMA_BENCH_TOP/tools/dma" STATIC=1 CC="$VM_TOOL_CC" >&2
	cp "$DMA_BENCH_TOP/tools/dma/dma_map_benchmark" "$root/opt/dma-bench/bin/"
fi

# upstream's own tools, unchanged, each built against its own header:
# Linux 6.12's and 7.3's
"$DMA_BENCH_TOP/scripts/build-upstream-tools.sh" "$VM_TOOL_CC" "$root/opt/dma-bench/bin"
# the project's tool of the first results layout (a1193e4: no result_size,
# no phase masks), for the ABI suite (tools/testing/guest/abi.sh)
"$DMA_BENCH_TOP/scripts/build-old-tool.sh" a1193e4 "$VM_TOOL_CC" \
	"$root/opt/dma-bench/bin/dma_map_benchmark_ver1"

flock -u 9
cp -r "$DMA_BENCH_TOP/tools/testing/guest/." "$root/opt/dma-bench/tests/"
for f in ${files[@]+"${files[@]}"}; do
	cp "$f" "$root/opt/dma-bench/"
done
# the guest tests' own programs
make -s -C "$DMA_BENCH_TOP/tools/testing/guest/src" CC="$VM_TOOL_CC" \
	OUTPUT="$root/opt/dma-bench/bin" >&2

busybox=${guest_busybox:-$(command -v busybox || echo /bin/busybox)}
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not static: scripts/setup.sh installs busybox-static"
cp "$busybox" "$root/bin/busybox"
install_applets=
if [ -n "${guest_busybox:-}" ]; then
	# it cannot run here: it makes its applet links when the guest starts
	ln -s busybox "$root/bin/sh"
	install_applets='/bin/busybox --install -s /bin'
else
	for applet in $("$busybox" --list); do
		[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
	done
fi

printf '%s\n' "$*" > "$root/opt/dma-bench/cmd"
# the machine's variables for the guest tests: NAME=VALUE words
guest_env=
# shellcheck disable=SC2086
[ -z "${VM_GUEST_ENV:-}" ] || guest_env="export $(printf '%s ' $VM_GUEST_ENV)"
# the init's line on the results port before the guest command runs
start_mark=@@DMA-BENCH-START@@
cat > "$root/init" <<EOF
#!/bin/sh
$install_applets
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
export PATH=/bin:/sbin PROJECT=/opt/dma-bench
export TOOL=/opt/dma-bench/bin/dma_map_benchmark MODDIR=/opt/dma-bench/modules
export DMA_BENCH_CONFIG=$dma DMA_BENCH_MACHINE=$machine HOME=/tmp
$guest_env
out=/dev/$VM_OUT_SERIAL
stty -F \$out raw -echo 2>/dev/null
cd /opt/dma-bench
echo "$start_mark" > \$out
sh -c "\$(cat /opt/dma-bench/cmd)" > \$out 2>&1
echo "@@DMA-BENCH-EXIT \$?@@" > \$out
sync
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.gz"
rm -rf "$root"

# --- boot -----------------------------------------------------------------
# a device tree from the kernel's package or build, derived by a script if
# need be
dtb_args=()
if [ -n "${VM_DTB:-}" ]; then
	dtb=$dtbs/$VM_DTB
	[ -f "$dtb" ] || die "machine $machine: no device tree $dtb"
	if [ -n "${VM_DTB_FIXUP:-}" ]; then
		"$DMA_BENCH_TOP/$VM_DTB_FIXUP" "$dtb" "$work/board.dtb"
		dtb=$work/board.dtb
	fi
	dtb_args=(-dtb "$dtb")
fi

args_var=VM_DMA_${dma}_ARGS
append_var=VM_DMA_${dma}_APPEND
out=$work/guest.out
console=$work/console.log
# the results port: a second UART, or, on a machine with one (QEMU's
# virt), a virtio console (VM_OUT_SERIAL=hvc0)
if [ -n "${VM_OUT_VIRTCONSOLE:-}" ]; then
	# shellcheck disable=SC2054 # QEMU's option values have commas
	out_args=(-device virtio-serial-device -chardev "file,id=results,path=$out"
		  -device virtconsole,chardev=results)
else
	out_args=(-serial "file:$out")
fi

# One boot. Sets boot_rc: the guest command's status, 124 on timeout, 125
# when the VM died; and started=1 once the guest command has begun.
boot() {
	: > "$out"
	: > "$console"
	rm -f "$work/boot-hung"
	started=
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$timeout" $VM_QEMU $VM_QEMU_ARGS ${!args_var} $VM_DEVICES \
		${DMA_BENCH_QEMU_ARGS:-} \
		-kernel "$kernel" ${dtb_args[@]+"${dtb_args[@]}"} -initrd "$work/initramfs.gz" \
		-append "$VM_APPEND ${!append_var} $extra_append" \
		-display none -monitor none -no-reboot \
		-serial "file:$console" "${out_args[@]}" </dev/null &
	qemu=$!

	# A board that cannot reset itself halts after a panic: end the VM
	# then, rather than at the timeout.
	# (The kill is in the pipeline: after a panic the log stays silent,
	# and tail would only notice that grep is gone when it writes again.)
	if [ -n "${VM_PANIC_HALTS:-}" ]; then
		tail -n +1 -f --pid="$qemu" "$console" 2>/dev/null |
			{ grep -q -m 1 'Kernel panic - not syncing' &&
			  sleep 2 && kill "$qemu" 2>/dev/null; } &
	fi

	# A kernel that has not started the command after boot_timeout
	# seconds hangs in its own boot: end it then.
	(
		waited=0
		while kill -0 "$qemu" 2>/dev/null; do
			grep -q "^$start_mark" "$out" 2>/dev/null && exit 0
			if [ "$waited" -ge "$boot_timeout" ]; then
				echo hung > "$work/boot-hung"
				kill "$qemu" 2>/dev/null
				exit 0
			fi
			sleep 1
			waited=$((waited + 1))
		done
	) &
	watcher=$!

	# Stream the guest's output while it runs, line by line (a pipe
	# would otherwise buffer it in blocks until the end).
	tail -n +1 -f --pid="$qemu" "$out" 2>/dev/null | stdbuf -oL tr -d '\r' |
		grep --line-buffered -v '^@@DMA-BENCH-\(EXIT\|START\)' &
	tailer=$!
	set +e
	wait "$qemu"
	qemu_rc=$?
	set -e
	wait "$tailer" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true

	grep -q "^$start_mark" "$out" && started=1
	boot_rc=$(tr -d '\r' < "$out" | sed -n 's/^@@DMA-BENCH-EXIT \([0-9]*\)@@$/\1/p' | tail -n 1)
	if [ -z "$boot_rc" ]; then
		if [ "$qemu_rc" = 124 ]; then
			say "$machine/$dma: timed out after ${timeout}s"
			boot_rc=124
		else
			say "$machine/$dma: the VM stopped before the command finished (qemu exit $qemu_rc)"
			boot_rc=125
		fi
	fi
}

# The kernel's own boot can fail under TCG for reasons that are not the
# code under test (a multi-threaded TCG race with the kernel's live code
# patching ends in "Oops: int3" now and then). Such a boot ran nothing of
# ours and printed nothing: boot again, a bounded number of times, and say
# so. A failure once the command has started is never retried.
boot_timeout=${VM_BOOT_TIMEOUT:-300}
attempts=${VM_BOOT_ATTEMPTS:-3}
attempt=1
while :; do
	progress "booting (timeout ${timeout}s)"
	boot
	rc=$boot_rc
	if [ "$rc" = 0 ] || [ -n "$started" ] || [ "$attempt" -ge "$attempts" ]; then
		break
	fi
	if [ -f "$work/boot-hung" ]; then
		why="the kernel had not started the command after ${boot_timeout}s"
	else
		# the first crash line, without its timestamp
		why=$(tr -d '\r' < "$console" | grep -m 1 -E 'Oops|BUG:|Kernel panic' |
		      sed 's/^\[ *[0-9.]*\] //') || true
		# none: QEMU itself failed, and booting again would fail alike
		[ -n "$why" ] || break
	fi
	say "$machine/$dma: boot $attempt failed before the command started ($why); booting again"
	cp "$console" "$work/console.boot$attempt.log"
	attempt=$((attempt + 1))
done

if [ "$rc" != 0 ]; then
	say "$machine/$dma: guest command exited $rc; kernel log tail ($console):"
	tail -n 50 "$console" | tr -d '\r' | sed 's/^/  | /' >&2
else
	rm -rf "$work"
fi
exit "$rc"
