# SPDX-License-Identifier: GPL-2.0-only
# The ABI's growth, against the tools built before it (Documentation/abi.rst):
# the raw ioctl's answer (->result_size, each mode's mask of the phases it
# measured); the project's tool as of a1193e4, the first results layout
# (no result_size, no masks, the phase list a function in the header;
# scripts/build-old-tool.sh), unchanged against this module: the
# dmaengine table and JSON of every prep form with each mode's figures
# where they were (its results 240 bytes apart: the runs, bytes and
# batches of every mode alike, the phases of each mode set), and, on a
# kernel with the migration hook and two nodes, its migrate mode's offload
# rows over soft_dma, every folio offloaded (its DMA_MIGRATE_OFFLOAD now
# forwarded to dma_migrate.ko); this tool's JSON of the same runs, no
# phase of a mode missing (null); then this tool against the benchmark
# module of a1193e4 (scripts/build-old-module.sh, when scripts/vm/run.sh
# was asked for this suite), which answers no result_size and no masks:
# every phase of the first layout read, none missing; its migrate mode,
# which drives dma_migrate.ko and not that module's ioctl, refused
# without dma_migrate, saying so. Upstream's tools of 6.12 and 7.3 are
# the map suite's.

OLD_TOOL=$PROJECT/bin/dma_map_benchmark_ver1
ABI_DE="-m dmaengine --sge 16 --bytes-per-channel 1M --runs 3 --warmup-runs 1 --channels 2"

# abi_modes: the prep modes of this kernel, for --prep-modes
abi_modes() {
	_am=memcpy
	have_memcpy_sg && _am=$_am,memcpy_sg
	have_memcpy_vec && _am=$_am,memcpy_vec
	echo "$_am,cpu"
}

# abi_mask MODE: the phases of the first layout MODE measures, as the
# uapi's list has them (bits: prep 0, submit 1, issue 2, wait 3, map 4,
# unmap 5, copy 6, convert 7, prep_stalls 8); later phases may add bits
abi_mask() {
	case $1 in
	0|1) echo 319 ;;	# prep..unmap, prep_stalls
	2) echo 64 ;;		# copy
	3) echo 447 ;;		# prep..unmap, convert, prep_stalls
	esac
}

# abi_raw: the ioctl answers result_size 240 and each mode's mask, which
# holds the phases of its mode the first layout had
abi_raw() {
	_ar_modes=1
	have_memcpy_sg && _ar_modes=$((_ar_modes | 2))
	have_memcpy_vec && _ar_modes=$((_ar_modes | 8))
	_ar_modes=$((_ar_modes | 4))
	de_run channels=2 sge=16 runs=2 prep_modes=$_ar_modes || return 1
	grep -q ' result_size=240 ' "$DE_OUT" ||
		{ echo "result_size is not 240"; return 1; }
	for _m in 0 1 2 3; do
		[ $((_ar_modes & (1 << _m))) != 0 ] || continue
		_want=$(abi_mask "$_m")
		_got=$(de_field "$_m" phases)
		expect_value "mode$_m phases $_got, its first layout's" \
			$((${_got:-0} & _want)) -eq "$_want" || return 1
	done
}

# abi_results JSON: every result of a tool's JSON has runs 3, the bytes and
# batches of the first, a run_ms and a GB/s above 0; a DMA row a wait_ms
# and prep calls above 0, the cpu row a copy_ms above 0; "null" nowhere
abi_results() {
	awk '
	function num(obj, key,   p) {
		p = index(obj, "\"" key "\":")
		found = p > 0
		return found ? substr(obj, p + length(key) + 3) + 0 : 0
	}
	function mean(obj, key,   p) {
		p = index(obj, "\"" key "\":{\"mean\":")
		return p ? substr(obj, p + length(key) + 11) + 0 : 0
	}
	index($0, "\"results\":[") {
		r = substr($0, index($0, "\"results\":["))
		r = substr(r, 1, index(r, "],\"figures\""))
		if (index(r, "null")) {
			print "a figure is null"
			bad++
		}
		n = split(r, obj, "\\{\"prep_mode\":\"")
		for (i = 2; i <= n; i++) {
			o = obj[i]
			mode = substr(o, 1, index(o, "\"") - 1)
			rows++
			if (i == 2) {
				bytes = num(o, "bytes")
				batches = num(o, "batches")
			}
			if (num(o, "runs") != 3 || num(o, "bytes") != bytes ||
			    num(o, "batches") != batches || bytes <= 0 ||
			    mean(o, "run_ms") <= 0 || mean(o, "gbps") <= 0) {
				print mode ": runs " num(o, "runs") ", bytes " num(o, "bytes") ", batches " num(o, "batches") ", run_ms " mean(o, "run_ms")
				bad++
			}
			if (mode == "cpu" ? mean(o, "copy_ms") <= 0 :
			    mean(o, "wait_ms") <= 0 || num(o, "prep_calls") <= 0) {
				print mode ": its phases not set"
				bad++
			}
		}
	}
	END { exit !(rows > 1 && !bad) }' "$1"
}

abi_old_tool_dmaengine() {
	_modes=$(abi_modes)
	_rows=$(echo "$_modes" | tr , '\n' | wc -l)
	# shellcheck disable=SC2086
	check "abi: a1193e4's tool, -m dmaengine --json $_modes: exit 0" \
		output_in /tmp/abi_old.json "$OLD_TOOL" $ABI_DE -p "$_modes" --json
	check "abi: ... every mode's figures where they were" \
		abi_results /tmp/abi_old.json
	tap_diag /tmp/abi_old.json
	# shellcheck disable=SC2086
	check "abi: a1193e4's tool, the table: exit 0" \
		output_in /tmp/abi_old.txt "$OLD_TOOL" $ABI_DE -p "$_modes"
	check "abi: ... a row per mode" \
		expect_value rows "$(grep -Ec '^(prep_memcpy|cpu)' /tmp/abi_old.txt)" \
		-eq "$_rows"
	check "abi: this tool, --json $_modes: every phase of every mode filled" \
		abi_new_json "$_modes"
}

# abi_new_json MODES: this tool's JSON of the same runs, as abi_results
abi_new_json() {
	# shellcheck disable=SC2086
	output_in /tmp/abi_new.json "$TOOL" $ABI_DE -p "$1" --json &&
	abi_results /tmp/abi_new.json
}

# abi_migrate_json: this tool's -v JSON of an offload row: no phase null
abi_migrate_json() {
	output_in /tmp/abi_mt.json "$TOOL" -m migrate --bytes 4M -r 1 -w 0 \
		--channels 2 -p memcpy -v --json || return 1
	awk 'index($0, "\"results\":[") {
		r = substr($0, index($0, "\"results\":["))
		r = substr(r, 1, index(r, "],\"figures\""))
		ok = index(r, "batch_ms") && !index(r, "null")
	}
	END { exit !ok }' /tmp/abi_mt.json
}

# abi_old_tool_migrate: a1193e4's tool's offload rows over soft_dma
abi_old_tool_migrate() {
	if [ ! -d /sys/kernel/mm/migrate_copy_offload ] ||
	   [ ! -d /sys/devices/system/node/node1 ]; then
		tap_skip "abi: migrate: no hook or one node"
		return
	fi
	check "abi: dma_migrate loads, for the forwarded DMA_MIGRATE_OFFLOAD" \
		load_module dma_migrate
	check "abi: a1193e4's tool, -m migrate, memcpy over 2 channels: every move verified" \
		output_in /tmp/abi_mt.csv "$OLD_TOOL" -m migrate --bytes 4M \
		-r 1 -w 0 --channels 2 -p memcpy --csv
	check "abi: ... every folio offloaded, none fell back" \
		abi_offloaded /tmp/abi_mt.csv
	tap_diag /tmp/abi_mt.csv
	check "abi: this tool, -m migrate -v --json: every phase filled" \
		abi_migrate_json
}

# abi_offloaded CSV: the prep_memcpy row offloaded every folio (column 9
# folios, 14 offloaded, 16 fell back)
abi_offloaded() {
	awk -F, '$1 == "prep_memcpy" {
			n++
			if ($14 + 0 != $9 + 0 || $16 + 0 != 0 || $9 + 0 == 0)
				bad++
		}
		END { exit !(n == 1 && !bad) }' "$1"
}

OLD_MODULE=$MODDIR/ver1/dma_map_benchmark.ko

# abi_old_module: this tool on a1193e4's module
abi_old_module() {
	if [ ! -f "$OLD_MODULE" ]; then
		tap_not_ok "abi: $OLD_MODULE is there (scripts/vm/run.sh builds it for this suite)"
		return
	fi
	check "abi: this tree's modules unload" \
		sh -c '! grep -q "^dma_migrate " /proc/modules || rmmod dma_migrate; rmmod dma_map_benchmark'
	check "abi: a1193e4's module loads" insmod "$OLD_MODULE"
	check "abi: a1193e4's module: result_size 0 (no such field)" \
		sh -c "\"$MBIOCTL\" dmaengine channels=2 sge=16 runs=2 | grep -q ' result_size=0 '"
	_modes=$(abi_modes)
	check "abi: this tool on a1193e4's module, --json $_modes: every phase of the first layout read" \
		abi_new_json "$_modes"
	tap_diag /tmp/abi_new.json
	if [ -d /sys/kernel/mm/migrate_copy_offload ] &&
	   [ -d /sys/devices/system/node/node1 ]; then
		check_fails_with "abi: this tool on a1193e4's module, -m migrate: refused, it drives dma_migrate.ko" \
			'dma_migrate is not loaded' \
			"$TOOL" -m migrate --bytes 4M -r 1 -w 0 --channels 2 -p memcpy
	fi
	check_klog_clean "abi: a1193e4's module"
	check "abi: a1193e4's module unloads" rmmod dma_map_benchmark
}

suite_abi() {
	if [ ! -x "$OLD_TOOL" ]; then
		tap_not_ok "abi: $OLD_TOOL is there (scripts/vm/run.sh builds it)"
		return
	fi
	check "abi: benchmark loads" load_module dma_map_benchmark
	check "abi: soft_dma loads" sd_load
	check "abi: the ioctl: result_size 240, each mode's phases" abi_raw
	abi_old_tool_dmaengine
	abi_old_tool_migrate
	check_klog_clean "abi"
	abi_old_module
	check "abi: soft_dma unloads" unload_module soft_dma
}
