#!/bin/bash
# The patched 7.3 kernel (cross-built, KASAN, lockdep, DMA-API debug) on
# QEMU's ZynqMP ZCU102: the dmaengine mode with memcpy and memcpy_sg on
# the GDMA (ZDMA) channels, dmatest, the map modes on a non-coherent device.
# A hung guest fails at 20 minutes.
# QEMU runs with the cache-maintenance counter (scripts/qemu-plugin/
# dcount.so, given the kernel's vector table and cpu_switch_to): the
# cachecount suite maps
# 64 x 4 KiB on the non-coherent device, and dcount-tap.py checks on the
# host what the guest executed: the data-cache operations the entries'
# lines call for, and at most 2 dsb sy a call (7.3's batched cache sync).
# Without the plugin (it did not build) those checks fail; the suites run.
# Then, when the before kernel (kernel/patches/v7.3-nobatch, derived by
# scripts/kernel/nobatch-kernel.sh) is in the cache, a second boot, of it,
# runs the cachecount suite alone and checks a dsb sy an entry in every
# call that maintains the cache; the benchmark (scripts/bench.sh -C)
# builds that kernel, this test never does: without it, one test skips,
# saying so.
# The first boot has numa=fake=2 (two nodes of about 850 MB): the hwmigrate
# suite moves pages between them through the migration copy offload on
# the ZDMA channels (each prep form at 1 and 8 channels with 4 KB folios,
# at 1 with 2 MB ones, 2 and 4 movers
# at once, the engine's device unbound during a move, the kernel's mm
# selftests migration and rmap with and without the offload).
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(mktemp)
out2=$(mktemp)
state=$(mktemp)
trap 'rm -f "$out" "$out2" "$state"' EXIT
so=$("$top/scripts/qemu-plugin/build.sh" 2>&1 | tail -n 1)
kdir=$("$top/scripts/kernel/build-debug-kernel.sh" --arch arm64 2>/dev/null | tail -n 1)
vectors=$(awk '$3 == "vectors" { print $1; exit }' "$kdir/build/System.map" 2>/dev/null)
switch=$(awk '$3 == "cpu_switch_to" { print $1; exit }' "$kdir/build/System.map" 2>/dev/null)
plugin=
if [ -f "$so" ] && [ -n "$vectors" ] && [ -n "$switch" ]; then
	plugin="-plugin $so,out=$out,vectors=0x$vectors,switch=0x$switch"
else
	echo "# no counter: plugin '$so', vectors '$vectors', cpu_switch_to '$switch' (the cachecount checks will fail)"
fi
# the kernel's mm selftests migration and rmap, cross-built static
# (libnuma from Debian's numactl source), for hwmigrate to run with and
# without the offload; one missing (the build failed) fails its check
sel=$("$top/scripts/build-mm-selftests.sh" "$kdir" 2>&1 | tail -n 1)
files=
for t in migration rmap; do
	if [ -x "$sel/$t" ]; then
		files="$files $sel/$t"
	else
		echo "# no mm selftest $t: scripts/build-mm-selftests.sh said: $sel"
	fi
done
# the vector table where System.map says it is
append=numa=fake=2
! grep -qx 'CONFIG_RANDOMIZE_BASE=y' "$kdir/build/.config" 2>/dev/null || append="$append nokaslr"
DMA_BENCH_QEMU_ARGS=$plugin VM_EXTRA_APPEND=$append VM_FILES=$files VM_TIMEOUT=${VM_TIMEOUT:-1200} \
	"$(dirname "$0")/vm-suite.sh" arm64-zcu102-73 direct hwdma cachecount hwmigrate |
	python3 "$(dirname "$0")/dcount-tap.py" --state "$state" --no-plan "$out" after
rc=("${PIPESTATUS[@]}")

# the before kernel, only if cached (lib.sh's nobatch_kernel_dir builds nothing)
before=
[ -z "$kdir" ] || before=$(. "$top/scripts/lib.sh" && nobatch_kernel_dir "$kdir") || before=
if [ -z "$before" ]; then
	python3 "$(dirname "$0")/dcount-tap.py" --state "$state" --skip \
		"the before kernel (kernel/patches/v7.3-nobatch) is not in the cache: scripts/bench.sh -C builds it, the test command does not" < /dev/null
	rc2=("${PIPESTATUS[@]}")
else
	bvectors=$(awk '$3 == "vectors" { print $1; exit }' "$before/build/System.map")
	bswitch=$(awk '$3 == "cpu_switch_to" { print $1; exit }' "$before/build/System.map")
	bplugin=
	[ ! -f "$so" ] || [ -z "$bvectors" ] || [ -z "$bswitch" ] ||
		bplugin="-plugin $so,out=$out2,vectors=0x$bvectors,switch=0x$bswitch"
	DMA_BENCH_KERNEL_DIR=$before DMA_BENCH_QEMU_ARGS=$bplugin VM_EXTRA_APPEND=$append \
		VM_TIMEOUT=${VM_TIMEOUT:-1200} \
		"$(dirname "$0")/vm-suite.sh" arm64-zcu102-73 direct cachecount |
		python3 "$(dirname "$0")/dcount-tap.py" --state "$state" "$out2" before
	rc2=("${PIPESTATUS[@]}")
fi
status=0
for r in "${rc[@]}" "${rc2[@]}"; do
	[ "$r" = 0 ] || status=1
done
exit "$status"
