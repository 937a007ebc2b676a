# SPDX-License-Identifier: GPL-2.0-only
# migrate: dma_migrate.ko, the dmacopy library as page migration's copy
# offload, loaded without the benchmark and driven through its controls
# (module parameters, /sys/kernel/mm/dma_migrate/), over soft_dma: the
# controls themselves (bad writes refused naming the parameter, a change
# while on, rmmod while on, offloading=1 at insmod); move_pages() from
# node 0 to node 1 with the offload started, with each prep form, the
# counters against the folios moved and the data compared
# (src/move_pages_offload.c); errors injected: fallbacks counted, data intact;
# one offload at a time; the benchmark's DMA_MIGRATE_OFFLOAD forwarded to
# it, its file closed without STOP, and refused without dma_migrate;
# soft_dma unbound with the offload started,
# between two moves and while one runs;
# soft_dma completing out of order (NO_ORDER) and with a pool of 16
# descriptors a channel; 64 KB and 1 MB folios (mTHP) moved there and
# back by the tool, the cpu row and the offload's, none split by the
# kernel (kernel/patches/v7.3-mm). On a kernel without the hook: START
# refused, and the log says why.

MOVE_PAGES_OFFLOAD=$PROJECT/bin/move_pages_offload
MIGRATE_SYSFS=/sys/kernel/mm/migrate_copy_offload
DM_PARAMS=/sys/module/dma_migrate/parameters
DM_SYSFS=/sys/kernel/mm/dma_migrate

# dm_set NAME VALUE: write dma_migrate's parameter NAME
dm_set() {
	echo "$2" > "$DM_PARAMS/$1"
}

# dm_refused NAME VALUE PATTERN: writing VALUE to NAME fails, and
# last_error names NAME and matches PATTERN
dm_refused() {
	if dm_set "$1" "$2" 2>/dev/null; then
		echo "$1=$2 was taken"
		return 1
	fi
	cat "$DM_SYSFS/last_error"
	grep -q "^$1: " "$DM_SYSFS/last_error" &&
		grep -Eq -- "$3" "$DM_SYSFS/last_error"
}

# dm_stat NAME: the value of the stats file's line NAME
dm_stat() {
	awk -v n="$1" '$1 == n { print $2 }' "$DM_SYSFS/stats"
}

# dm_on_moved: offloading=1 over 2 channels with memcpy, a move_pages()
# by move_pages_offload through it (start=0: it neither starts nor stops it)
# with every folio offloaded and the data verified, then offloading=0,
# the counters still in stats
dm_on_moved() {
	dm_set prep_form memcpy && dm_set nr_dma_chan 2 &&
		dm_set reason_mask syscall && dm_set offloading 1 || return 1
	cat "$DM_SYSFS/channels"
	if [ "$(cat "$DM_PARAMS/offloading")" != 1 ] ||
	   [ "$(wc -l < "$DM_SYSFS/channels")" != 2 ] ||
	   ! "$MOVE_PAGES_OFFLOAD" start=0 prep=0 channels=2 pages=512; then
		dm_set offloading 0
		return 1
	fi
	dm_set offloading 0 || return 1
	cat "$DM_SYSFS/stats"
	[ "$(cat "$DM_PARAMS/offloading")" = 0 ] &&
		[ "$(dm_stat folios_offloaded)" -gt 0 ] &&
		[ "$(dm_stat phase.batch)" -gt 0 ]
}

# dm_rmmod_refused: offloading=1, rmmod refused while on, then off
dm_rmmod_refused() {
	dm_set nr_dma_chan 1 && dm_set offloading 1 || return 1
	if rmmod dma_migrate 2>&1; then
		echo "rmmod unloaded the offload while on"
		return 1
	fi
	grep -q '^dma_migrate ' /proc/modules && dm_set offloading 0 &&
		channels_released
}

# dm_change_busy: a parameter's change while on: EBUSY, named
dm_change_busy() {
	dm_set nr_dma_chan 1 && dm_set offloading 1 || return 1
	dm_refused nr_dma_chan 2 'cannot change while the offload runs'
	_rc=$?
	dm_set offloading 0 && return $_rc
}

# dm_insmod_on: dma_migrate again, offloading=1 on insmod's command line
# with the parameters after it: it starts with all of them
dm_insmod_on() {
	unload_module dma_migrate || return 1
	insmod "$MODDIR/dma_migrate.ko" offloading=1 prep_form=memcpy \
		nr_dma_chan=2 || return 1
	cat "$DM_SYSFS/channels"
	[ "$(cat "$DM_PARAMS/offloading")" = 1 ] &&
		[ "$(wc -l < "$DM_SYSFS/channels")" = 2 ] &&
		grep -q ' memcpy$' "$DM_SYSFS/channels"
	_rc=$?
	dm_set offloading 0 && return $_rc
}

# migrate_controls: dma_migrate's controls, with the hook
migrate_controls() {
	check "migrate: dma_migrate loaded without the benchmark" \
		sh -c "! grep -q '^dma_map_benchmark ' /proc/modules && grep -q '^dma_migrate ' /proc/modules"
	check_output "migrate: ... its hook file names the project's hook" \
		'^project$' cat "$DM_SYSFS/hook"
	check "migrate: offloading=1 over 2 channels, then 0; a move_pages() through the offload verified, its counters in stats" \
		dm_on_moved
	check "migrate: nr_dma_chan=0 refused, last_error naming it" \
		dm_refused nr_dma_chan 0 'not a number in 1\.\.256'
	check "migrate: prep_form=bogus refused, last_error naming it" \
		dm_refused prep_form bogus 'not memcpy, memcpy_sg or memcpy_vec'
	check "migrate: reason_mask=bogus refused, last_error naming it" \
		dm_refused reason_mask bogus 'is not a reason'
	check "migrate: reason_mask takes names, all, none and a mask (BIT(MR_SYSCALL) 0x8)" \
		sh -c "echo all > $DM_PARAMS/reason_mask && grep -q '^syscall,numa_misplaced,demotion,compaction$' $DM_PARAMS/reason_mask && echo 0x8 > $DM_PARAMS/reason_mask && grep -q '^syscall$' $DM_PARAMS/reason_mask && echo none > $DM_PARAMS/reason_mask && grep -q '^none$' $DM_PARAMS/reason_mask && echo syscall > $DM_PARAMS/reason_mask"
	check "migrate: offloading=1 with reason_mask none refused" \
		sh -c "echo none > $DM_PARAMS/reason_mask && ! echo 1 > $DM_PARAMS/offloading; _r=\$?; grep -q '^reason_mask: ' $DM_SYSFS/last_error; _g=\$?; echo syscall > $DM_PARAMS/reason_mask; [ \$_r = 0 ] && [ \$_g = 0 ]"
	check "migrate: a change while on refused with EBUSY, last_error naming it" \
		dm_change_busy
	check "migrate: rmmod refused while offloading" dm_rmmod_refused
	check "migrate: offloading=1 at insmod starts with every parameter" \
		dm_insmod_on
	check "migrate: ... channels released" channels_released
}

# migrate_compat: the benchmark's DMA_MIGRATE_OFFLOAD, which the project's
# older tools call, forwarded to dma_migrate; refused without it
migrate_compat() {
	check "migrate: benchmark loads, beside dma_migrate" \
		load_module dma_map_benchmark
	check "migrate: DMA_MIGRATE_OFFLOAD forwarded to dma_migrate: every folio offloaded, data intact" \
		"$MOVE_PAGES_OFFLOAD" ctl=ioctl prep=0 pages=256
	check "migrate: ... a second START, on another file, refused with EBUSY" \
		"$MOVE_PAGES_OFFLOAD" ctl=ioctl expect=busy
	check "migrate: ... the file closed without STOP" \
		"$MOVE_PAGES_OFFLOAD" ctl=ioctl prep=0 pages=256 stop=0
	check "migrate: ... the offload is stopped with it" \
		sh -c "! cat $MIGRATE_SYSFS/migrator | grep -q . && grep -qx 0 $DM_PARAMS/offloading"
	check "migrate: ... channels released" channels_released
	check "migrate: dma_migrate unloads" unload_module dma_migrate
	klog_mark
	check_fails_with "migrate: DMA_MIGRATE_OFFLOAD without dma_migrate: START refused, ENODEV" \
		'START: No such device' "$MOVE_PAGES_OFFLOAD" ctl=ioctl prep=0 pages=16
	check_klog_has "migrate: ... the log says to load dma_migrate.ko" \
		'insmod dma_migrate\.ko'
	check "migrate: benchmark unloads" unload_module dma_map_benchmark
	check "migrate: dma_migrate loads again" load_module dma_migrate
}

# migrate_registered: the hook has a migrator registered
migrate_registered() {
	[ -n "$(cat "$MIGRATE_SYSFS/migrator" 2>/dev/null)" ]
}

MIGRATE_THP=/sys/kernel/mm/transparent_hugepage

# migrate_mthp_run ORDER PREP: the tool's migrate mode on 16 MiB of
# folios of order ORDER, one run: -p cpu the cpu row alone, else the cpu
# row and PREP's offload rows over 2 of soft_dma's channels, each row
# moving the buffer node 0 -> 1 -> 0, every move verified by the tool
# (move_pages()' status, every page's node, the pattern). The output in
# /tmp/mthp.out; the size's split stat before and after in _mthp_split0
# and _mthp_split1.
migrate_mthp_run() {
	_mthp_order=$1
	_mthp_stat=$MIGRATE_THP/hugepages-$((4 << $1))kB/stats/split
	_mthp_split0=$(cat "$_mthp_stat") || return 1
	_mthp_split1=
	if [ "$2" = cpu ]; then
		set -- -p cpu
	else
		set -- -p "$2" --channels 2
	fi
	output_in /tmp/mthp.out "$TOOL" -m migrate --folio-order "$_mthp_order" \
		--bytes 16M -r 1 -w 0 --src-node 0 --dst-node 1 "$@"
	_mthp_rc=$?
	_mthp_split1=$(cat "$_mthp_stat")
	return $_mthp_rc
}

# migrate_mthp_whole ORDER: migrate_mthp_run's folios all came back
# whole: the census at the start (the tool's "# folios:" line) has folios
# of the size asked for, every row moved as many folios as it counts, the
# tool does not warn that the kernel split some (it counts them again
# after each move), and the size's split stat in
# /sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats/ has not moved.
# 7.3 without kernel/patches/v7.3-mm splits them all on the way back.
migrate_mthp_whole() {
	_mthp_rc=0
	awk '/^# folios: / {
			s = $0
			sub(/^# folios: /, "", s)
			sub(/ \(.*/, "", s)
			n = split(s, part, ", ")
			for (i = 1; i <= n; i++) {
				split(part[i], f, " x ")
				total += f[1]
				size[f[2]] = f[1]
			}
			census = 1
		}
		/^# WARNING: the kernel split folios/ { print; bad = 1 }
		$1 == "cpu" || $1 ~ /^prep_memcpy(_sg|_vec)?$/ {
			rows++
			if (!($3 in size)) {
				print "row " $1 ": no folio of " $3 " in the census: " s
				bad = 1
			}
			if ($4 != total) {
				print "row " $1 ": " $4 " folios moved, the census has " total
				bad = 1
			}
		}
		END {
			if (!census)
				print "no census (# folios:) in the output"
			exit !(census && rows && !bad)
		}' /tmp/mthp.out || _mthp_rc=1
	expect_value "hugepages-$((4 << $1))kB/stats/split after the moves" \
		"$_mthp_split1" -eq "$_mthp_split0" || _mthp_rc=1
	[ $_mthp_rc = 0 ] || cat /tmp/mthp.out
	return $_mthp_rc
}

# migrate_mthp FORMS: orders 4 and 8 (64 KB and 1 MB, PTE-mapped), the
# cpu row alone, then with the offload rows of FORMS (-p's list)
migrate_mthp() {
	if [ ! -d "$MIGRATE_THP/hugepages-64kB" ] ||
	   [ ! -d "$MIGRATE_THP/hugepages-1024kB" ]; then
		tap_skip "migrate: mTHP: this kernel has no hugepages-64kB and hugepages-1024kB"
		return
	fi
	for _o in 4 8; do
		for _p in cpu "$1"; do
			if [ "$_p" = cpu ]; then
				_rows="the cpu row"
			else
				_rows="the cpu row and $_p over 2 channels"
			fi
			check "migrate: order $_o folios, node 0 -> 1 -> 0, $_rows: every move verified" \
				migrate_mthp_run "$_o" "$_p"
			check "migrate: ... order $_o, $_rows: no folio split, the census and hugepages-$((4 << _o))kB split unchanged" \
				migrate_mthp_whole "$_o"
		done
	done
	check "migrate: ... channels released" channels_released
}

# migrate_unbind_during: move half the pages, unbind soft_dma with the
# offload started, move the other half (move_pages_offload does all three);
# soft_dma bound again after
migrate_unbind_during() {
	"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024 expect=unbind \
		unbind="$SD_DEV"
	_mu_rc=$?
	echo "$SD_DEV" > "$SD_DRV/bind"
	return $_mu_rc
}

# migrate_unbind_running: one move_pages() of 4096 pages over 2 channels,
# soft_dma slowed to 1 ms a descriptor (per-segment memcpy: 512 a batch,
# so about a quarter of a second a batch); a thread of move_pages_offload
# unbinds soft_dma once a batch is copied, while the move goes on: the
# batches after it copy with the CPU. soft_dma bound again after
migrate_unbind_running() {
	sd_knob delay_us 1000 || return 1
	"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=4096 expect=unbind \
		unbind="$SD_DEV" during=1
	_mu_rc=$?
	echo "$SD_DEV" > "$SD_DRV/bind"
	sd_knobs_reset
	return $_mu_rc
}

# migrate_safety: copies that must not outlive their folios. An engine
# that cannot stop its work (no_terminate, as ioat, plx_dma and mv_xor):
# every batch misses a 50 ms deadline, its descriptors run to their end
# before the folios go back, and the buffer's new data, written after
# each move, is intact a second later. Completions out of order with a
# short deadline: no late callback completes the next batch. Four
# processes migrating at once: nobody waits for another's batch (busy
# channels decline), every page verified, every folio counted once. A
# poisoned page stays where it was. A device whose mappings would bounce
# through swiotlb is refused. Compaction beside the movers, its
# migrations offloaded too, then the same in a memory cgroup near its
# limit under hung-task detection.
# migrate_lost_released LOST0 QUARANTINED0: mm's counters since the values
# before: folios lost, and none quarantined any more
migrate_lost_released() {
	expect_value "folios_lost since" \
		"$(($(cat "$MIGRATE_SYSFS/folios_lost") - $1))" -gt 0 &&
	expect_value "folios_quarantined" \
		"$(cat "$MIGRATE_SYSFS/folios_quarantined")" -eq "$2"
}

# migrate_stalled PREP: an engine stuck on each channel's first descriptor
# for 3 s that cannot be stopped (soft_dma's stall_ms with no_terminate),
# a deadline of 100 ms: move_pages() of 4 MB returns within a second of
# the deadline plus the drain bound, the pages whose copy still ran are
# not migrated by it (lost, their destinations quarantined) and the CPU
# moves them on the retry, every page's data intact; once the engine
# ended, STOP gives the quarantined folios back, KASAN and kmemleak clean
migrate_stalled() {
	if [ ! -r "$MIGRATE_SYSFS/folios_quarantined" ]; then
		tap_skip "migrate: a stalled engine: the kernel's hook cannot take lost folios (no $MIGRATE_SYSFS/folios_quarantined)"
		return
	fi
	check "migrate: soft_dma stalling 3 s on each channel's first descriptor, without device_terminate_all" \
		soft_reload no_terminate=1 stall_ms=3000
	_st_l0=$(cat "$MIGRATE_SYSFS/folios_lost")
	_st_q0=$(cat "$MIGRATE_SYSFS/folios_quarantined")
	klog_mark
	check "migrate: ... deadline 100 ms, 4 MB: the move returns within 1 s of deadline and drain, folios lost, every page's data intact" \
		"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024 timeout_ms=100 \
		expect=lost settle=3500
	check "migrate: ... mm counted them lost, and after the engine ended none is quarantined" \
		migrate_lost_released "$_st_l0" "$_st_q0"
	check_klog_has "migrate: ... the log says their destinations are quarantined" \
		'quarantined'
	check_klog_clean "migrate: a stalled engine"
	check "migrate: ... the channels offload again" \
		"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024
	check "migrate: ... channels released" channels_released
}

# migrate_late_callback PREP: a provider with terminate_all but no
# device_synchronize (pl330, dw; soft_dma's no_synchronize), its first
# descriptor on each channel stalled: a batch past its 100 ms deadline is
# terminated, its folios fall back to the CPU, and its stopped
# descriptor's callback still comes after the terminate returned; it must
# reach nothing (the batch's generation), and the channel work for the
# next batches, every folio offloaded
migrate_late_callback() {
	check "migrate: soft_dma without device_synchronize, stalling 3 s on each channel's first descriptor" \
		soft_reload no_synchronize=1 stall_ms=3000
	sd_stats_reset
	klog_mark
	check "migrate: ... deadline 100 ms: the batch terminated, its folios fall back, data intact" \
		"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024 timeout_ms=100 \
		expect=fallback
	check "migrate: ... the stopped descriptors' callbacks came after the terminate" \
		expect_value "soft_dma late callbacks" "$(sd_stat all late_callbacks)" -gt 0
	check "migrate: ... the channels are not wedged: every folio offloaded, data intact" \
		"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024
	check_klog_clean "migrate: late callbacks"
}

# migrate_submit_failure PREP: every third dmaengine_submit() fails (soft_dma's
# fail_submit_every): the batches fall back, counted, data intact, and
# the counts the client raised for a failed submit are undone, so the
# channels take every batch after it
migrate_submit_failure() {
	check "migrate: soft_dma as loaded first, for failed submits" soft_reload
	sd_stats_reset
	klog_mark
	check "migrate: every third dmaengine_submit() fails: fallbacks and errors counted, data intact" \
		sd_with fail_submit_every=3 "$MOVE_PAGES_OFFLOAD" prep=0 channels=2 \
		pages=1024 expect=fallback
	sd_knob fail_submit_every 0
	check "migrate: ... submits did fail" \
		expect_value "soft_dma failed submits" "$(sd_stat all submit_failed)" -gt 0
	check "migrate: ... then every folio offloaded: no count left behind" \
		"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024
	check_klog_clean "migrate: failed submits"
}

# migrate_centis: /proc/uptime in hundredths of a second
migrate_centis() {
	read -r _mc_up _ < /proc/uptime
	_mc_s=${_mc_up%.*}
	_mc_c=${_mc_up#*.}
	echo $((_mc_s * 100 + ${_mc_c#0}))
}

# migrate_unbind_stalled_run PREP: soft_dma unbound while a batch waits on
# its stalled channels (no_terminate, stall_ms): the unbind returns within
# 2.1 s (the 100 ms deadline, the 1 s drain, 1 s to spare), whatever the
# engine does; the move ends, every page's data intact; the folios whose
# copy still ran were quarantined, until soft_dma's remove() returned
# (its release of the channel drops the stalled descriptor without a
# callback, as a real driver's does; its remove() stops the engine):
# none stays quarantined; soft_dma bound again
migrate_unbind_stalled_run() {
	_us_q0=$(cat "$MIGRATE_SYSFS/folios_quarantined")
	_us_l0=$(cat "$MIGRATE_SYSFS/folios_lost")
	"$MOVE_PAGES_OFFLOAD" prep="$1" channels=2 pages=1024 timeout_ms=100 \
		expect=any > /tmp/unbind-stalled.out 2>&1 &
	_us_pid=$!
	# the first batch on the stalled engine
	sleep 1
	_us_t0=$(migrate_centis)
	echo "$SD_DEV" > "$SD_DRV/unbind"
	_us_t1=$(migrate_centis)
	_us_rc=0
	wait "$_us_pid" || _us_rc=1
	echo "$SD_DEV" > "$SD_DRV/bind" || _us_rc=1
	[ "$_us_rc" = 0 ] || cat /tmp/unbind-stalled.out
	expect_value "the unbind's time (1/100 s)" "$((_us_t1 - _us_t0))" -le 210 ||
		_us_rc=1
	expect_value "folios_lost since" \
		"$(($(cat "$MIGRATE_SYSFS/folios_lost") - _us_l0))" -gt 0 ||
		_us_rc=1
	expect_value "folios_quarantined" \
		"$(cat "$MIGRATE_SYSFS/folios_quarantined")" -eq "$_us_q0" ||
		_us_rc=1
	return $_us_rc
}

migrate_unbind_stalled() {
	check "migrate: soft_dma stalling 5 s on each channel's first descriptor, without device_terminate_all, for an unbind" \
		soft_reload no_terminate=1 stall_ms=5000
	klog_mark
	check "migrate: ... unbound during a stalled batch: the unbind returns within deadline and drain, the move ends with its data intact, the lost folios released after remove()" \
		migrate_unbind_stalled_run "$1"
	check_klog_clean "migrate: an unbind during a stall"
	check "migrate: ... channels released" channels_released
}

# migrate_async PREP: NUMA balancing (migrate_misplaced_folio(),
# MIGRATE_ASYNC) through the offload, the first descriptor of each channel
# stalled 3 s on an engine that cannot stop it: no fault waits in the
# offload beyond its bound for MIGRATE_ASYNC callers (10 ms and a jiffy
# of drain; 50 ms allowed here, where a sync caller would wait 1.1 s),
# pages come to CPU 0's node, data intact (src/migrate_async.c)
migrate_async() {
	if [ ! -w /proc/sys/kernel/numa_balancing ]; then
		tap_skip "migrate: NUMA balancing through the offload: this kernel has none (the bench kernel has: migrate_balancing.sh, x86-bench.t)"
		return
	fi
	check "migrate: soft_dma stalling 3 s on each channel's first descriptor, without device_terminate_all, for NUMA balancing" \
		soft_reload no_terminate=1 stall_ms=3000
	_na_dir=/sys/kernel/debug/sched/numa_balancing
	for _na_k in scan_delay_ms scan_period_min_ms; do
		[ ! -w "$_na_dir/$_na_k" ] || echo 100 > "$_na_dir/$_na_k"
	done
	echo 1 > /proc/sys/kernel/numa_balancing
	check "migrate: NUMA balancing (MIGRATE_ASYNC) through the offload, the engine stalled: no fault waits in it over 50 ms, pages moved, data intact" \
		"$PROJECT/bin/migrate_async" pages=256 seconds=30 bound_ms=50 \
		prep="$1" channels=2 settle=3500
	check "migrate: ... once the engine ended, STOP released what it lost" \
		expect_value "folios_quarantined" \
		"$(cat "$MIGRATE_SYSFS/folios_quarantined")" -eq 0
	echo 0 > /proc/sys/kernel/numa_balancing
	check "migrate: ... channels released" channels_released
}

migrate_safety() {
	_ms_p=0
	have_memcpy_sg && _ms_p=1
	check "migrate: soft_dma without device_terminate_all (no_terminate=1)" \
		soft_reload no_terminate=1
	klog_mark
	check "migrate: no_terminate, 200 ms a descriptor, deadline 50 ms: every batch falls back, new data intact after the engine ran" \
		sd_with delay_us=200000 "$MOVE_PAGES_OFFLOAD" prep=$_ms_p channels=2 \
		pages=4096 timeout_ms=50 expect=fallback rewrite=1000
	check_klog_has "migrate: ... the descriptors were waited for" \
		'cannot be terminated: waiting for its descriptors'
	check "migrate: ... the channels offload again once idle" \
		"$MOVE_PAGES_OFFLOAD" prep=$_ms_p channels=2 pages=1024
	check "migrate: ... nothing left allocated" \
		expect_value "soft_dma descriptors still allocated" "$(cat "$SD/descriptors")" -eq 0
	migrate_stalled "$_ms_p"
	migrate_late_callback "$_ms_p"
	[ "$_ms_p" = 0 ] || migrate_unbind_stalled "$_ms_p"
	migrate_async "$_ms_p"
	migrate_submit_failure "$_ms_p"
	check "migrate: soft_dma completing out of order (idxd), for a deadline" \
		soft_reload no_order=1
	check "migrate: NO_ORDER, 5 ms a descriptor, deadline 10 ms: fallbacks, data intact" \
		sd_with delay_us=5000 "$MOVE_PAGES_OFFLOAD" prep=0 channels=2 \
		pages=1024 timeout_ms=10 expect=fallback rewrite=200
	check "migrate: ... the next batches complete on their own, every folio offloaded" \
		"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024
	check "migrate: soft_dma as loaded first, for four movers" soft_reload
	check "migrate: four processes at once over 2 channels: every page verified, every folio counted once" \
		"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024 movers=4 expect=any
	check "migrate: a poisoned page (MADV_HWPOISON) stays, as without the offload; the others move, data intact" \
		"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024 poison=1 expect=any
	migrate_bounce
	check "migrate: soft_dma as loaded first, for compaction" soft_reload
	klog_mark
	check "migrate: every reason offloaded, four movers while compaction runs: no hang, every page verified" \
		migrate_compacting
	check_klog_clean "migrate: every reason, compaction beside"
	if scope_full; then
		tap_skip "migrate: moves under memory.max with hung-task detection: on the debug kernel (x86-debug.t), which has memory cgroups"
		return
	fi
	klog_mark
	check "migrate: four movers held under memory.max, compaction beside, every reason, hung-task timeout 10 s: every page verified" \
		migrate_memcg
	check_klog_lacks "migrate: ... no task blocked for 10 s" \
		'blocked for more than'
	check_klog_clean "migrate: memory.max, compaction beside"
}

# migrate_bounce: a DMA device addressing 32 bits, in a VM with memory
# above 4 GiB: its mappings of that memory would bounce through swiotlb,
# three CPU copies a batch; START refuses it, naming the device
migrate_bounce() {
	if ! grep -Eq '^ *[0-9a-f]{9,}-[0-9a-f]+ : System RAM' /proc/iomem; then
		tap_skip "migrate: a 32-bit DMA device: this VM has no memory above 4 GiB"
		return
	fi
	check "migrate: soft_dma addressing 32 bits (dma_bits=32)" \
		soft_reload dma_bits=32
	klog_mark
	check "migrate: ... START refused: its mappings would bounce through swiotlb (EOPNOTSUPP, LIMIT)" \
		"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 expect=bounce
	check_klog_has "migrate: ... the message names the device" \
		'maps for soft_dma\.0, whose mappings of memory beyond its DMA mask bounce through swiotlb'
	check "migrate: ... channels released" channels_released
}

# migrate_memcg: migrate_compacting's four movers in a memory cgroup whose
# memory.max leaves them a quarter more than their buffers, so that their
# faults reclaim and compaction runs on memory the moves need, with
# hung-task detection at 10 s (restored after)
migrate_memcg() {
	_cg=/sys/fs/cgroup
	[ -e $_cg/cgroup.controllers ] || mount -t cgroup2 none $_cg ||
		{ echo "cannot mount cgroup2"; return 1; }
	grep -qw memory $_cg/cgroup.controllers ||
		{ echo "no memory controller"; return 1; }
	[ -w /proc/sys/kernel/hung_task_timeout_secs ] ||
		{ echo "no hung-task detection"; return 1; }
	echo +memory > $_cg/cgroup.subtree_control || return 1
	mkdir -p $_cg/migrate || return 1
	# 4 movers x 4 MiB, and a quarter more
	echo $((20 << 20)) > $_cg/migrate/memory.max || return 1
	_mm_ht=$(cat /proc/sys/kernel/hung_task_timeout_secs)
	echo 10 > /proc/sys/kernel/hung_task_timeout_secs
	( while :; do echo 1 > /proc/sys/vm/compact_memory; done ) &
	_mm_pid=$!
	sh -c "echo \$\$ > $_cg/migrate/cgroup.procs &&
		exec $MOVE_PAGES_OFFLOAD prep=0 channels=2 pages=1024 movers=4 \
		reasons=15 expect=any"
	_mm_rc=$?
	kill $_mm_pid
	wait $_mm_pid 2>/dev/null
	# one more detector period, for a task still blocked
	sleep 11
	echo "# memory.events: $(tr '\n' ' ' < $_cg/migrate/memory.events)"
	echo "# memory.peak: $(cat $_cg/migrate/memory.peak 2>/dev/null)"
	echo "$_mm_ht" > /proc/sys/kernel/hung_task_timeout_secs
	rmdir $_cg/migrate
	return $_mm_rc
}

# migrate_compacting: four movers with the offload taking every reason
# (compaction and demotion too), while the whole memory is compacted
# again and again beside them: compaction's own migrations go through the
# offload and meet the movers' batches on the channels
migrate_compacting() {
	[ -w /proc/sys/vm/compact_memory ] ||
		{ echo "no /proc/sys/vm/compact_memory"; return 1; }
	( while :; do echo 1 > /proc/sys/vm/compact_memory; done ) &
	_mc_pid=$!
	"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024 movers=4 reasons=15 \
		expect=any
	_mc_rc=$?
	kill $_mc_pid
	wait $_mc_pid 2>/dev/null
	return $_mc_rc
}

# migrate_hugetlb_pools: "HugePages_Total HugePages_Surp" of /proc/meminfo
migrate_hugetlb_pools() {
	awk '/^HugePages_Total:/ { t = $2 } /^HugePages_Surp:/ { s = $2 }
		END { print t + 0, s + 0 }' /proc/meminfo
}

# migrate_hugetlb_run OFFLOAD NODE1_POOL: 8 default-size hugetlb pages
# allocated from node 0's pool, moved to node 1 with NODE1_POOL free pages
# there (0: each destination a temporary surplus page) by move_pages_offload
# (with the offload started when OFFLOAD is 1): every page moved and its
# data intact, no hugetlb folio handed to the offload, and the pool's
# size and surplus as they were (a copy skipped, or a temporary page made
# persistent, once showed here). The pools are emptied after.
migrate_hugetlb_run() {
	_hp_rc=0
	_hp_kb=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
	_hp_dir=/sys/devices/system/node/node%s/hugepages/hugepages-${_hp_kb}kB/nr_hugepages
	# shellcheck disable=SC2059 # the node number goes into the path
	_hp0=$(printf "$_hp_dir" 0)
	# shellcheck disable=SC2059
	_hp1=$(printf "$_hp_dir" 1)
	echo 8 >"$_hp0" && echo "$2" >"$_hp1" || return 1
	expect_value "node0 $_hp0" "$(cat "$_hp0")" -eq 8 || _hp_rc=1
	expect_value "node1 $_hp1" "$(cat "$_hp1")" -eq "$2" || _hp_rc=1
	_hp_before=$(migrate_hugetlb_pools)
	"$MOVE_PAGES_OFFLOAD" expect=hugetlb pages=8 offload="$1" prep=0 \
		channels=2 || _hp_rc=1
	_hp_after=$(migrate_hugetlb_pools)
	[ "$_hp_before" = "$_hp_after" ] || {
		echo "hugetlb pool (total surplus): $_hp_before before, $_hp_after after"
		_hp_rc=1
	}
	echo 0 >"$_hp0"
	echo 0 >"$_hp1"
	return $_hp_rc
}

# migrate_hugetlb: the four cases, the offload off and on, node 1's pool
# empty and with free pages
migrate_hugetlb() {
	if ! grep -q '^Hugepagesize:' /proc/meminfo; then
		tap_skip "migrate: hugetlb: this kernel has no CONFIG_HUGETLBFS"
		return
	fi
	for _off in 0 1; do
		for _pool in 0 8; do
			check "migrate: hugetlb, offload $_off, node 1 pool of $_pool free: all moved, data intact, none offloaded, pool unchanged" \
				migrate_hugetlb_run "$_off" "$_pool"
		done
	done
	check "migrate: ... channels released" channels_released
}

suite_migrate() {
	if [ ! -d /sys/devices/system/node/node1 ]; then
		tap_skip "migrate: this VM has one NUMA node"
		return
	fi
	unload_module dma_map_benchmark
	check "migrate: dma_migrate loads (after dmacopy), without the benchmark" \
		load_module dma_migrate
	check "migrate: soft_dma loads" sd_load
	if ! have_migrate_hook; then
		klog_mark
		check "migrate: without the hook, START fails with EOPNOTSUPP, NO_API, hook NONE" \
			"$MOVE_PAGES_OFFLOAD" expect=nohook
		check_klog_has "migrate: ... the message says the kernel lacks the hook" \
			'this kernel has no migration copy-offload hook'
		check "migrate: ... channels released" channels_released
	else
		migrate_controls
		_forms="0:memcpy"
		have_memcpy_sg && _forms="$_forms 1:memcpy_sg"
		have_memcpy_vec && _forms="$_forms 3:memcpy_vec"
		for _f in $_forms; do
			check "migrate: move_pages 0 -> 1 over 2 channels, ${_f#*:}: every folio offloaded, data intact" \
				"$MOVE_PAGES_OFFLOAD" prep="${_f%%:*}" channels=2 pages=2048
			check "migrate: ... channels released" channels_released
		done
		_mt_forms=memcpy
		have_memcpy_sg && _mt_forms=$_mt_forms,memcpy_sg
		have_memcpy_vec && _mt_forms=$_mt_forms,memcpy_vec
		migrate_mthp "$_mt_forms"
		migrate_hugetlb
		check "migrate: one channel: every folio offloaded, data intact" \
			"$MOVE_PAGES_OFFLOAD" prep=0 channels=1 pages=512
		klog_mark
		check "migrate: error_every=3: fallbacks and errors counted, data intact" \
			sd_with error_every=3 "$MOVE_PAGES_OFFLOAD" prep=0 channels=2 \
			pages=2048 expect=fallback
		check "migrate: a parameter changed while on is refused with EBUSY" \
			"$MOVE_PAGES_OFFLOAD" expect=busy
		check "migrate: ... and once stopped: unregistered" \
			sh -c "! cat $MIGRATE_SYSFS/migrator | grep -q ."
		migrate_compat
		klog_mark
		check "migrate: soft_dma unbound between two moves: offloaded before, the CPU after, every folio counted, data intact" \
			migrate_unbind_during
		check_klog_has "migrate: ... the offload heard of the unbind" \
			'dma[0-9]+chan[0-9]+: migration copies with the CPU until offloading=0'
		check "migrate: ... START works again after the rebind" \
			"$MOVE_PAGES_OFFLOAD" prep=0 pages=256
		klog_mark
		check "migrate: soft_dma unbound while a move runs: the move completes, later batches by the CPU, every folio counted, data intact" \
			migrate_unbind_running
		check_klog_has "migrate: ... the offload heard of the unbind" \
			'dma[0-9]+chan[0-9]+: migration copies with the CPU until offloading=0'
		check "migrate: ... START works again after the rebind" \
			"$MOVE_PAGES_OFFLOAD" prep=0 pages=256
		check "migrate: ... channels released" channels_released
		# the providers' contracts the client keeps: completions out
		# of order (idxd), a bounded descriptor pool (zynqmp_dma)
		check "migrate: soft_dma completing out of order (idxd)" \
			soft_reload no_order=1
		check "migrate: NO_ORDER, 2 channels: every folio offloaded, data intact" \
			"$MOVE_PAGES_OFFLOAD" prep=0 channels=2 pages=1024
		check "migrate: soft_dma with 16 descriptors a channel" \
			soft_reload pool_size=16
		for _f in $_forms; do
			check "migrate: a pool of 16, ${_f#*:}: every folio offloaded, data intact" \
				"$MOVE_PAGES_OFFLOAD" prep="${_f%%:*}" channels=2 pages=1024
		done
		check "migrate: ... channels released" channels_released
		migrate_safety
		check "migrate: soft_dma as loaded first" soft_reload
	fi
	check "migrate: soft_dma unloads" sd_unload
	check "migrate: dma_migrate unloads" unload_module dma_migrate
	check_klog_clean "migrate"
}
