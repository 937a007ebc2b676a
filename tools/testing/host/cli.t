#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The built binary end to end, on the host (no module needed): exit status
# 0 for --help/--version; for an invalid value, one message naming the
# option (nothing on stdout, no debugfs access) and exit status 1 for the
# options upstream's tool has (-m -t -s -n -b -d -x -g, as upstream's tool
# exits), 2 for the others; the extended map options
# (--entries, --entry-size, --iterations, --cpus, --sync) and the dmaengine
# mode's --prep lists, --buffers, --depth included; a --cpus
# CPU that is not online is exit status 2; with valid options on a host
# without the module, exit status 1 with the open diagnosis.
. "$(dirname "$0")/lib.sh"
build

# expect STATUS STDERR-REGEX DESC ARGS...: exit status and stderr match
expect() {
	local want=$1 pat=$2 desc=$3 out err rc
	shift 3
	out=$("$TOOL" "$@" 2>"$HOST_OUT/cli.err")
	rc=$?
	err=$(cat "$HOST_OUT/cli.err")
	if [ "$rc" -eq "$want" ] && grep -Eq -- "$pat" <<<"$err" &&
	   { [ "$want" -ne 2 ] || [ -z "$out" ]; }; then
		tap_ok "$desc"
	else
		tap_not_ok "$desc"
		echo "#   args: $*"
		echo "#   exit status $rc, want $want; stderr must match /$pat/"
		printf '%s\n' "$err" | sed 's/^/#   stderr: /'
		printf '%s\n' "$out" | sed 's/^/#   stdout: /'
	fi
}

out=$("$TOOL" --help)
rc=$?
[ "$rc" -eq 0 ] && grep -q -- '--dma-trans-ns' <<<"$out" && grep -q '^EXAMPLES' <<<"$out"
tap_result $? "--help: exit 0, usage with options and examples"
missing=
for o in mode json csv verbose help version threads seconds node dma-bits dma-dir \
	 dma-trans-ns granule channels channel device folio-order folio sge bytes-per-channel \
	 runs warmup-runs src-node dst-node prep verify poll allow-fewer timeout-ms \
	 per-channel samples entries entry-size iterations cpus sync percentiles \
	 buffers depth dst-folio-order dst-folio; do
	grep -q -- "--$o\b" <<<"$out" || missing="$missing --$o"
done
[ -z "$missing" ]
tap_result $? "--help lists every long option${missing:+ (it lacks:$missing)}"
[ "$(wc -L <<<"$out")" -le 80 ]
tap_result $? "--help fits in 80 columns"

out=$("$TOOL" --version)
rc=$?
[ "$rc" -eq 0 ] && grep -Eq '^dma_map_benchmark [^ ]+$' <<<"$out"
tap_result $? "--version: exit 0, 'dma_map_benchmark VERSION'"

expect 1 "^dma_map_benchmark: invalid --threads '0': must be 1\.\.1024$" \
	"-t 0: exit 1 (as upstream), message names --threads and its range" -t 0
expect 1 "invalid --threads 'abc': must be 1\.\.1024" "-t abc: exit 1 (as upstream)" -t abc
expect 1 "invalid --threads '1x'" "-t 1x: exit 1 (as upstream)" -t 1x
expect 1 "invalid --threads '': must be" "--threads '': exit 1 (as upstream)" --threads ''
expect 1 "invalid --seconds '99999999999999999999': must be 1\.\.300" \
	"-s overflow: exit 1 (as upstream)" -s 99999999999999999999
expect 1 "invalid --node '-2': must be -1\.\.1023" "-n -2: exit 1 (as upstream)" -n -2
expect 1 "invalid --dma-bits '65': must be 20\.\.64" "-b 65: exit 1 (as upstream)" -b 65
expect 1 "invalid --dma-dir '3': must be 0\.\.2 or bidirectional, to_device, from_device" \
	"-d 3: exit 1 (as upstream)" -d 3
expect 1 "invalid --dma-trans-ns '10000001': must be 0\.\.10000000" \
	"-x too big: exit 1 (as upstream)" -x 10000001
expect 1 "invalid --granule '65537': must be 1\.\.65536" "-g 65537: exit 1 (as upstream)" -g 65537
expect 2 "^dma_map_benchmark: invalid --entries '0': must be 1\.\.65536$" \
	"--entries 0: exit 2, the message names --entries and its range" \
	-m sg --entries 0
expect 2 "invalid --entries '65537': must be 1\.\.65536" \
	"--entries 65537: exit 2" -m sg --entries 65537
expect 2 "invalid --entry-size '0': must be 1B\.\.1GB \(suffixes K, M, G, T\)" \
	"--entry-size 0: exit 2" --entry-size 0
expect 2 "invalid --entry-size '4X'" "--entry-size 4X: exit 2" --entry-size 4X
expect 2 "invalid --entry-size '2G'" "--entry-size 2G: exit 2" --entry-size 2G
expect 2 "invalid --iterations '100000001': must be 0\.\.100000000" \
	"--iterations 100000001: exit 2" --iterations 100000001
expect 2 "invalid --iterations '-1'" "--iterations -1: exit 2" --iterations -1
expect 2 "invalid --cpus '1024': must be a list of CPUs 0\.\.1023 such as 0, 0-3 or 0,2,4 \(at most 1024\)" \
	"--cpus 1024: exit 2" --cpus 1024
expect 2 "invalid --cpus '3-1'" "--cpus 3-1: exit 2" --cpus 3-1
expect 2 "invalid --cpus '0,'" "--cpus '0,': exit 2" --cpus 0,
expect 2 "--granule and --entries set the same thing: give one" \
	"-g with --entries: exit 2" -g 8 --entries 8
expect 2 "--sync applies to the map modes" "--sync with -m dmaengine: exit 2" \
	-m dmaengine --sync
expect 2 "--entries applies to the map modes" \
	"--entries with -m dmaengine: exit 2" -m dmaengine --entries 4
expect 1 "invalid --mode 'x': must be single, sg, dmaengine, migrate, 0 or 1" \
	"-m x: exit 1 (as upstream)" -m x
expect 2 "invalid --channels '257': must be 1\.\.256" \
	"--channels 257: exit 2" -m dmaengine --channels 257
expect 2 "invalid --folio '3K': must be a power-of-two multiple of the page size" \
	"--folio 3K: exit 2" -m dmaengine --folio 3K
expect 2 "invalid --bytes-per-channel '1X'" "--bytes-per-channel 1X: exit 2" -m dmaengine --bytes-per-channel 1X
expect 2 "invalid --sge '65537': must be 1\.\.65536" "--sge 65537: exit 2" \
	-m dmaengine --sge 65537
expect 2 "invalid --runs '0': must be 1\.\.10000" "--runs 0: exit 2" \
	-m dmaengine --runs 0
expect 2 "invalid --warmup-runs '101': must be 0\.\.100" "--warmup-runs 101: exit 2" \
	-m dmaengine --warmup-runs 101
expect 2 "invalid --timeout-ms '600001': must be 0\.\.600000" \
	"--timeout-ms 600001: exit 2" -m dmaengine --timeout-ms 600001
expect 2 "invalid --prep-modes 'x': must be memcpy, memcpy_sg, memcpy_vec, cpu, both or all, or a comma-separated list of them" \
	"--prep x (an abbreviation of --prep-modes): exit 2" -m dmaengine --prep x
expect 2 "invalid --prep-modes 'memcpy,,cpu'" "--prep memcpy,,cpu: exit 2" \
	-m dmaengine --prep memcpy,,cpu
expect 2 "invalid --prep-modes 'memcpy_vecs'" "--prep memcpy_vecs: exit 2" \
	-m dmaengine --prep memcpy_vecs
expect 2 "^dma_map_benchmark: invalid --dst-folio-order '19': must be 0\.\.18$" \
	"--dst-folio-order 19: exit 2, the message names --dst-folio-order and its range" \
	-m dmaengine --dst-folio-order 19
expect 2 "invalid --dst-folio '3K': must be a power-of-two multiple of the page size" \
	"--dst-folio 3K: exit 2" -m dmaengine --dst-folio 3K
expect 2 "^dma_map_benchmark: --dst-folio-order: a batch of --sge 16 x 4KB folios \(64KB\) is not a whole number of 2MB destination folios: give --sge a multiple of 512" \
	"--dst-folio-order 9 with --sge 16: exit 2, says which --sge fills them" \
	-m dmaengine --sge 16 --dst-folio-order 9
expect 2 "--dst-folio-order and --dst-folio set the same thing: give one" \
	"--dst-folio-order with --dst-folio: exit 2" -m dmaengine --dst-folio-order 1 --dst-folio 8K
expect 2 "--dst-folio applies to -m dmaengine only" "--dst-folio in a map mode: exit 2" \
	-m sg --dst-folio 8K
expect 2 "invalid --buffers 'both': must be distinct or reuse" \
	"--buffers both: exit 2" -m dmaengine --buffers both
expect 2 "invalid --depth '65': must be 1\.\.64" "--depth 65: exit 2" \
	-m dmaengine --depth 65
expect 2 "invalid --depth '0': must be 1\.\.64" "--depth 0: exit 2" \
	-m dmaengine --depth 0
expect 2 "--depth applies to -m dmaengine only" "--depth in a map mode: exit 2" \
	-m sg --depth 2
expect 2 "--sge applies to -m dmaengine only" "--sge in a map mode: exit 2" --sge 4
expect 2 "--threads applies to the map modes" "-t with -m dmaengine: exit 2" \
	-m dmaengine -t 2
expect 2 "--json and --csv exclude each other" "--json --csv: exit 2" \
	-m dmaengine --json --csv
expect 2 "unknown or ambiguous option '--bogus'" "unknown option: exit 2" --bogus
expect 2 "unexpected argument 'extra'" "stray argument: exit 2" extra

# A --cpus CPU this host does not have: exit 2, before debugfs is opened.
if [ -r /sys/devices/system/cpu/online ] && [ "$(nproc --all)" -lt 1024 ]; then
	expect 2 "^dma_map_benchmark: --cpus: CPU 1023 is not online \(online: [0-9,-]+\)$" \
		"--cpus 1023 on a host with fewer CPUs: exit 2, names the online ones" \
		-m sg --cpus 0,1023
	expect 2 "^dma_map_benchmark: --cpus: CPU 1023 is not online \(online: [0-9,-]+\)$" \
		"-m dmaengine --cpus 1023 on a host with fewer CPUs: exit 2 before debugfs" \
		-m dmaengine --cpus 1023
else
	tap_skip "no online CPU list, or CPU 1023 exists: offline --cpus not exercised"
	tap_skip "no online CPU list, or CPU 1023 exists: offline --cpus not exercised"
fi

# The guest suites' raw ioctl client knows the ABI's field names: a known
# field gets as far as opening debugfs, an unknown one is a usage error.
mbioctl=$HOST_OUT/mbioctl
if ! gcc -std=gnu11 -O2 -Wall -Wextra -I"$TOP/uapi" -o "$mbioctl" \
	"$TOP/tools/testing/guest/src/mbioctl.c" 2>"$HOST_OUT/mbioctl.err"; then
	tap_not_ok "mbioctl.c builds"
	sed 's/^/#   /' "$HOST_OUT/mbioctl.err"
elif [ -e /sys/kernel/debug/dmaengine_benchmark ]; then
	tap_skip "the module is loaded here: mbioctl's fields not exercised"
else
	bad=
	for f in dst_folio_order=1 list_channels=1 prep_modes=8 nr_cpus=0; do
		"$mbioctl" dmaengine "$f" >/dev/null 2>&1
		[ $? -eq 1 ] || bad="$bad $f"
	done
	"$mbioctl" dmaengine reserved2=1 >/dev/null 2>&1
	[ $? -eq 2 ] || bad="$bad reserved2(accepted)"
	[ -z "$bad" ]
	tap_result $? "mbioctl knows dst_folio_order and list_channels, no longer reserved2${bad:+ (wrong:$bad)}"
fi

# Valid options: on a host without the module, opening debugfs fails.
if [ -e /sys/kernel/debug/dma_map_benchmark ] ||
   [ -e /sys/kernel/debug/dmaengine_benchmark ]; then
	for _ in 1 2 3 4 5; do
		tap_skip "the module is loaded here: runtime errors not exercised"
	done
else
	diag='debugfs is not mounted: mount -t debugfs none|module is not loaded: insmod|no device is bound|debugfs is for root only'
	expect 1 "^dma_map_benchmark: cannot open /sys/kernel/debug/dma_map_benchmark: .*" \
		"valid sg options, no module: exit 1, says what it could not open" \
		-t 8 -s 30 -n -1 -b 32 -d 2 -x 0 -g 8 -m sg
	expect 1 "^dma_map_benchmark: cannot open /sys/kernel/debug/dma_map_benchmark: .*" \
		"the reference extended command line, no module: exit 1, the open error" \
		-m sg --entries 2560 --entry-size 4K --iterations 200 --cpus 0 \
		--sync -d to_device
	expect 1 "$diag" "valid dmaengine options, no module: exit 1 with a diagnosis" \
		-m dmaengine -c 2 -f 64K --sge 16 --bytes-per-channel 1M --json
	expect 1 "$diag" "the new dmaengine options, no module: exit 1 with a diagnosis" \
		-m dmaengine --prep memcpy,cpu --buffers reuse --depth 4 --cpus 0 --csv
	expect 1 "$diag" "memcpy_vec with --dst-folio, no module: exit 1 with a diagnosis" \
		-m dmaengine --prep memcpy_sg,memcpy_vec --sge 16 --dst-folio 64K -v
fi
tap_end
