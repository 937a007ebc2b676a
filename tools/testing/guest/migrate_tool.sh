# SPDX-License-Identifier: GPL-2.0-only
# The tool's migrate mode (-m migrate) on the VM's real kernel: the cpu row
# over two NUMA nodes at folio orders 0 and 9, every move verified by the
# tool (move_pages()' status, every page's node, the pattern), the one line
# that says the offload needs kernel/patches/v7.3-migrate/ (without
# dma_migrate.ko, which -p memcpy then refuses, and with it on a kernel
# without the hook), the THP controls
# restored after a run, an error and a SIGINT, the input errors; on a VM of
# one node, the error saying migrate needs two; on a kernel without THP
# (the debug kernel), order 9 refused saying so. On a kernel with the
# hook (kernel/patches/v7.3-migrate/, the patched x86 kernels): the
# offload on already refused, saying so; without a DMA_MEMCPY channel the
# offload refused, saying so; over soft_dma, the
# offload rows of each prep form the kernel has, every folio offloaded and
# none fallen back, in CSV and JSON; with THP (the bench kernel) also at
# orders 4 and 9 over 1 and 4 channels; --movers 2, two processes moving
# at once, every page of both verified, and in the -v JSON each offload
# row's phases and other adding up to its batch time (a move, a batch, a
# folio), nothing asserted about speed. The stock kernel with two nodes:
# scripts/vm/run.sh -m x86 -a numa=fake=2.

MT_THP=/sys/kernel/mm/transparent_hugepage

# mt_thp_state: every THP enabled control and its selected word, one a line
mt_thp_state() {
	for _f in "$MT_THP/enabled" "$MT_THP"/hugepages-*kB/enabled; do
		[ -f "$_f" ] && echo "$_f $(cat "$_f")"
	done
}

# mt_thp_unchanged DESC: the controls as mt_thp_save left them
mt_thp_unchanged() {
	mt_thp_state > /tmp/mt_thp.now
	if cmp -s /tmp/mt_thp.before /tmp/mt_thp.now; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		diff /tmp/mt_thp.before /tmp/mt_thp.now | tap_diag
	fi
}

# mt_run ARGS...: the tool's migrate mode, output in /tmp/mt.out
mt_run() {
	output_in /tmp/mt.out "$TOOL" -m migrate "$@"
}

mt_one_node() {
	check_fails_with "migrate_tool: one NUMA node: refused, saying migrate needs two" \
		'--dst-node: node 0 is the only NUMA node with memory here' \
		"$TOOL" -m migrate --bytes 4M
	mt_thp_unchanged "migrate_tool: one node: the THP controls untouched"
}

# mt_have_hook: the kernel has the migration copy-offload hook
mt_have_hook() {
	[ -d /sys/kernel/mm/migrate_copy_offload ]
}

# mt_offloaded CSV: every offload row of CSV (prep_memcpy, _sg,
# _vec; at least one) offloaded every folio (column 9) and none fell back
mt_offloaded() {
	awk -F, '$1 ~ /^prep_memcpy(_sg|_vec)?$/ {
			n++
			if ($14 + 0 != $9 + 0 || $16 + 0 != 0 || $9 + 0 == 0) {
				print "row " $1 ": " $9 " folios, " $14 " offloaded, " $16 " fell back"
				bad++
			}
		}
		END { exit !(n > 0 && !bad) }' "$1"
}

# mt_phases_add_up JSON FOLIOS: the tool's -v JSON of a --movers 2 run:
# params.movers 2; every row moved FOLIOS folios (both movers'); in each
# offload row (at least one), at each scale (a move in ms, a batch and a
# folio in us) the phases and other add up to the batch time, within the
# rounding of the six decimals of the ten figures
mt_phases_add_up() {
	awk -v want="$2" '
	# mean(obj, key): the mean of figure key; found 0 when there is none
	function mean(obj, key,   p) {
		p = index(obj, "\"" key "\":{\"mean\":")
		found = p > 0
		return found ? substr(obj, p + length(key) + 11) + 0 : 0
	}
	NR == 1 {
		if (!index($0, "\"movers\":2}")) {
			print "params.movers is not 2"
			bad++
		}
		r = substr($0, index($0, "\"results\":["))
		r = substr(r, 1, index(r, "],\"figures\""))
		n = split(r, obj, "\\{\"prep_mode\":\"")
		nph = split("build map prep submit issue wait unmap mark other", ph, " ")
		split("_ms _us_per_batch _us_per_folio", sc, " ")
		for (i = 2; i <= n; i++) {
			o = obj[i]
			mode = substr(o, 1, index(o, "\"") - 1)
			folios = substr(o, index(o, "\"folios\":") + 9) + 0
			if (folios != want) {
				print mode ": " folios " folios, not " want
				bad++
			}
			if (mode !~ /^prep_memcpy/)
				continue
			rows++
			for (s = 1; s <= 3; s++) {
				sum = 0
				for (k = 1; k <= nph; k++) {
					sum += mean(o, ph[k] sc[s])
					if (!found) {
						print mode ": no " ph[k] sc[s]
						bad++
					}
				}
				b = mean(o, "batch" sc[s])
				d = sum - b
				if (!found || d > 1e-5 || d < -1e-5) {
					print mode ": the phases and other" sc[s] " add up to " sum ", batch" sc[s] " is " b
					bad++
				}
			}
		}
	}
	END { exit !(rows > 0 && !bad) }' "$1"
}

# mt_offload_rows: the hook's offload over soft_dma, each prep form
mt_offload_rows() {
	check_fails_with "migrate_tool: the hook, no DMA_MEMCPY channel: the offload refused, saying so" \
		'found fewer DMA_MEMCPY channels' \
		"$TOOL" -m migrate --bytes 4M -r 1 -w 0
	check "migrate_tool: soft_dma loads" sd_load
	echo 1 > /sys/module/dma_migrate/parameters/offloading
	check_fails_with "migrate_tool: the offload on already (offloading=1): refused, saying so" \
		'offload is on already' "$TOOL" -m migrate --bytes 4M -r 1 -w 0
	echo 0 > /sys/module/dma_migrate/parameters/offloading
	_mt_modes=memcpy
	have_memcpy_sg && _mt_modes=$_mt_modes,memcpy_sg
	have_memcpy_vec && _mt_modes=$_mt_modes,memcpy_vec
	check "migrate_tool: the hook, soft_dma, $_mt_modes over 2 channels: every move verified" \
		mt_run --bytes 8M -r 2 -w 1 --channels 2 -p "$_mt_modes" --csv
	check "migrate_tool: ... every offload row offloaded every folio, none fell back" \
		mt_offloaded /tmp/mt.out
	tap_diag /tmp/mt.out
	# large folios (a kernel with THP: the bench kernel), 1 and 4 channels
	if [ -d "$MT_THP" ]; then
		for _o in 4 9; do
			for _c in 1 4; do
				check "migrate_tool: the hook, order $_o, $_c channel(s), $_mt_modes: every move verified" \
					mt_run --folio-order "$_o" --bytes 16M -r 1 -w 0 \
					--channels "$_c" -p "$_mt_modes" --csv
				check "migrate_tool: ... order $_o, $_c channel(s): every offload row offloaded every folio" \
					mt_offloaded /tmp/mt.out
			done
		done
	fi
	# two processes moving at once, each its own 4 MB: 2048 folios a row
	check "migrate_tool: --movers 2, $_mt_modes over 2 channels: every page of both movers verified" \
		mt_run --bytes 4M -r 1 -w 0 --channels 2 --movers 2 \
		-p "$_mt_modes" -v --json
	check "migrate_tool: ... -v JSON: each offload row's phases and other add up to its batch time, a move, a batch, a folio" \
		mt_phases_add_up /tmp/mt.out 2048
	check_output "migrate_tool: --json: mode migrate, the cpu row, then memcpy's" \
		'"mode":"migrate".*"results":\[\{"prep_mode":"cpu".*\{"prep_mode":"prep_memcpy"' \
		"$TOOL" -m migrate --bytes 4M -r 1 -w 0 -p memcpy --json
	check_output "migrate_tool: the table: the hook named, a memcpy row" \
		'^prep_memcpy +1 ' "$TOOL" -m migrate --bytes 4M -r 1 -w 0 -p memcpy
	grep -q '^# offload: hook project' "$TAP_OUT"
	tap_result $? "migrate_tool: the table: '# offload: hook project'"
	check "migrate_tool: ... channels released" channels_released
	check "migrate_tool: soft_dma unloads" sd_unload
}

# mt_cpu_row ORDER BYTES: the cpu row at folio order ORDER, verified
mt_cpu_row() {
	check "migrate_tool: order $1, $2, node 0 -> 1: the cpu row, every move verified" \
		mt_run --folio-order "$1" --bytes "$2" -r 2 -w 1 --src-node 0 \
		--dst-node 1
	grep -q '^cpu  *-  ' /tmp/mt.out
	tap_result $? "migrate_tool: order $1: a cpu row"
	grep -q 'kernel/patches/v7.3-migrate/' /tmp/mt.out
	tap_result $? "migrate_tool: order $1: one line says the offload needs kernel/patches/v7.3-migrate/"
	mt_thp_unchanged "migrate_tool: order $1: the THP controls restored"
	tap_diag /tmp/mt.out
}

suite_migrate_tool() {
	mt_thp_state > /tmp/mt_thp.before
	if [ ! -d /sys/devices/system/node/node1 ]; then
		mt_one_node
		return
	fi
	klog_mark
	# without dma_migrate: the cpu row, and the line says to load it
	unload_module dma_migrate
	mt_cpu_row 0 8M
	grep -q '^# offload: not run: dma_migrate is not loaded (insmod dma_migrate.ko' /tmp/mt.out
	tap_result $? "migrate_tool: no dma_migrate: the line names the module to load"
	check_fails_with "migrate_tool: no dma_migrate, -p memcpy: refused, saying to load it" \
		'dma_migrate is not loaded: insmod dma_migrate.ko' \
		"$TOOL" -m migrate --bytes 4M -r 1 -w 0 -p memcpy
	if [ -d "$MT_THP" ]; then
		mt_cpu_row 9 16M
		grep -Eq '^# folios: 8 x 2MB|^# WARNING: the kernel fell back' /tmp/mt.out
		tap_result $? "migrate_tool: order 9: the census counts 8 folios of 2MB, or warns of a fallback"
		grep -q '^# thp: ' /tmp/mt.out
		tap_result $? "migrate_tool: order 9: the THP controls set are said"
		_sigint_folio=2M
	else
		check_fails_with "migrate_tool: order 9 on a kernel without THP: refused, saying so" \
			'--folio-order: this kernel has no transparent hugepages' \
			"$TOOL" -m migrate --folio-order 9 --bytes 16M
		_sigint_folio=4K
	fi

	check "migrate_tool: dma_migrate loads" load_module dma_migrate
	if mt_have_hook; then
		mt_offload_rows
		check "migrate_tool: dma_migrate loads again" load_module dma_migrate
	else
		check_output "migrate_tool: module loaded, a kernel without the hook: the cpu row and the one line" \
			'offload: not run: .*kernel/patches/v7.3-migrate/' \
			"$TOOL" -m migrate --bytes 4M -r 1 -w 0
		tap_diag "$TAP_OUT"
		check_output "migrate_tool: --json: mode migrate, the cpu row" \
			'"mode":"migrate".*"results":\[\{"prep_mode":"cpu"' \
			"$TOOL" -m migrate --bytes 4M -r 1 -w 0 --json
	fi
	check_output "migrate_tool: --csv: the header and the cpu row" \
		'^cpu,0,0,4096,4194304,0,1,1,1024,' \
		"$TOOL" -m migrate --bytes 4M -r 1 -w 0 -p cpu --csv

	check_fails_with "migrate_tool: --dst-node 5: no such node" \
		'invalid --dst-node 5: there is no NUMA node 5' \
		"$TOOL" -m migrate --bytes 4M --dst-node 5
	check_fails_with "migrate_tool: --bytes above the node's free memory" \
		'invalid --bytes 64GB: more than node 0.s free memory' \
		"$TOOL" -m migrate --bytes 64G
	check_fails_with "migrate_tool: --bytes not whole folios" \
		'--bytes 3MB is not a whole number of --folio 2MB folios' \
		"$TOOL" -m migrate --bytes 3M --folio 2M
	mt_thp_unchanged "migrate_tool: after the errors: the THP controls untouched"

	# SIGINT in the middle of a long run: stopped between two moves
	"$TOOL" -m migrate --folio $_sigint_folio --bytes 8M -r 10000 -w 0 -p cpu \
		> /tmp/mt.out 2>&1 &
	_pid=$!
	sleep 3
	kill -INT "$_pid"
	wait "$_pid"
	expect_value "exit status after SIGINT" $? -eq 1 > /tmp/mt.why
	tap_result $? "migrate_tool: SIGINT: exit status 1"
	grep -q 'stopped by signal 2' /tmp/mt.out
	tap_result $? "migrate_tool: SIGINT: the tool says it was stopped"
	mt_thp_unchanged "migrate_tool: SIGINT: the THP controls restored"

	check "migrate_tool: dma_migrate unloads" unload_module dma_migrate
	check_klog_clean "migrate_tool"
}
