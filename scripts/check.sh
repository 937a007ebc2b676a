#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The test command (README, `make check`, CI): set up, build, then run every
# test with prove: first the fast tier (`make check-host`: host unit tests
# and static checks, stopping here if they fail), then the suites inside
# the VMs (stock 6.12 in three DMA configurations, the patched debug and
# bench kernels, the arm boards), two at a time, the longest first. Ends
# with prove's summary.
#
# The patched kernels the VM files need (scripts/kernel/build-debug-kernel.sh)
# are built in the background from the start, one after the other, while
# the fast tier and the files on cached kernels run; a file whose kernel is
# not built yet runs after those, and its run.sh waits for the build (the
# builder's lock). On a warm machine the kernels are all cached and the
# background job finds them at once.
#
# usage: scripts/check.sh [PROVE_ARGS] [TEST.t...]
#   with TEST.t arguments, runs only those (no fast tier first)
#   VM_JOBS=N  VM files at once (default 2: on 2 cores two VMs at once beat
#              one at a time, Documentation/testing.rst "Timings")
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$DMA_BENCH_TOP/scripts/setup.sh" test

say "building the modules and the tool"
make -s -C "$DMA_BENCH_TOP" all >/dev/null

cd "$DMA_BENCH_TOP"
tests=()
args=()
for a in "$@"; do
	case $a in
	*.t) tests+=("$a") ;;
	*) args+=("$a") ;;
	esac
done

# The VM files, the longest first (warm, Documentation/testing.rst): with
# two at a time the last to start are the short ones. Files not named
# here follow in name order.
LONGEST_FIRST="x86-debug-dmaengine.t x86-debug.t x86-bench.t arm64-zdma-73.t x86-direct.t
	x86-debug-iommu.t x86-swiotlb.t arm-pl330-73.t arm-pl330.t x86-harness.t
	arm64-zdma.t x86-iommu.t arm64-virt-mte-73.t x86-sweep.t"

# kernel_of FILE.t: "ARCH FLAVOR" of the patched kernel its machine boots,
# nothing for a stock kernel
kernel_of() {
	local machine
	machine=$(sed -n 's/.*vm-suite\.sh" \([^ ]*\) .*/\1/p' "$1" | head -n 1)
	[ -n "$machine" ] || return 0
	(
		# shellcheck source=/dev/null
		. "scripts/vm/machines/$machine.conf"
		case $VM_KERNEL_KIND in
		debug|bench) echo "$VM_ARCH $VM_KERNEL_KIND" ;;
		esac
	)
}

# kernel_cached ARCH FLAVOR: that kernel is in the cache
kernel_cached() {
	local key
	key=$(scripts/kernel/build-debug-kernel.sh --arch "$1" --flavor "$2" \
	      --print-key 2>/dev/null | tail -n 1) || return 1
	[ -n "$key" ] && [ -f "$DMA_BENCH_CACHE/kernels/$key/stamp" ]
}

prebuild=
# shellcheck disable=SC2317 # the EXIT trap runs it
stop_prebuild() {
	[ -z "$prebuild" ] || kill -TERM -- "-$prebuild" 2>/dev/null || true
}
trap stop_prebuild EXIT

if [ ${#tests[@]} = 0 ]; then
	all=()
	for t in $LONGEST_FIRST; do
		[ ! -f "tools/testing/vm/$t" ] || all+=("tools/testing/vm/$t")
	done
	for t in tools/testing/vm/*.t; do
		[[ " $LONGEST_FIRST " == *[[:space:]]"${t##*/}"[[:space:]]* ]] || all+=("$t")
	done
	# files on cached kernels first; the others after them, and their
	# kernels built in that order
	later=()
	kernels=()
	for t in "${all[@]}"; do
		k=$(kernel_of "$t")
		# shellcheck disable=SC2086 # two words: ARCH FLAVOR
		if [ -z "$k" ] || kernel_cached $k; then
			tests+=("$t")
		else
			later+=("$t")
			[[ " ${kernels[*]:-} " == *" ${k/ /:} "* ]] || kernels+=("${k/ /:}")
		fi
	done
	tests+=(${later[@]+"${later[@]}"})
	if [ ${#kernels[@]} -gt 0 ]; then
		log=$DMA_BENCH_BUILD/check-kernels.log
		mkdir -p "$DMA_BENCH_BUILD"
		say "building the patched kernels ${kernels[*]} in the background (log: $log)"
		# its own process group, so that stop_prebuild ends the builds too
		# shellcheck disable=SC2016 # the inner shell expands them
		setsid bash -c 'for k; do
				scripts/kernel/build-debug-kernel.sh --arch "${k%:*}" \
					--flavor "${k#*:}" || exit 1
			done' prebuild "${kernels[@]}" > "$log" 2>&1 < /dev/null &
		prebuild=$!
	fi

	# two files at a time when warm; one while kernels build: the builds
	# are the cold run's critical path (2026-12-04, cold: the fast tier
	# two at a time took 458 s beside the first build, 355 s one at a
	# time on 2026-12-03, and the build was slower too)
	host_jobs=()
	[ -z "$prebuild" ] || host_jobs=(HOST_JOBS=1)
	say "the fast tier: make check-host ${host_jobs[*]:-}"
	make -s -C "$DMA_BENCH_TOP" check-host ${host_jobs[@]+"${host_jobs[@]}"} ||
		die "make check-host failed: fix it before the VM tests"
fi

# prove's summary is the last thing printed: CI reads it. While kernels
# are being built the VMs run at a lower priority: the builds are the
# cold run's critical path, and the VMs take the cycles they leave.
nice=()
[ -z "$prebuild" ] || nice=(nice -n 10)
rc=0
${nice[@]+"${nice[@]}"} prove --timer -j "${VM_JOBS:-2}" ${args[@]+"${args[@]}"} "${tests[@]}" || rc=$?
exit "$rc"
