# SPDX-License-Identifier: GPL-2.0-only
# hwmigrate: page migration's copy offload (DMA_MIGRATE_OFFLOAD) on a
# board's own engine (VM_GUEST_ENV's HWDMA_DRIVER: ZDMA on
# arm64-zcu102-73, booted with numa=fake=2), no soft_dma: move_pages()
# from node 0 to node 1 through the tool's -m migrate, a short verified
# run of each prep form at 1 and HWDMA_CHANNELS channels with 4 KB
# folios, and at 1 with 2 MB ones (every page's
# node and data checked by the tool, every folio offloaded, the folios
# moved whole); 2 and 4 processes moving at once, every byte of each
# verified; the engine's device unbound from its driver while a move
# runs (the move finishes, every folio counted once, offloaded before
# the unbind and by the CPU after, the data intact) and bound again; the
# kernel's own mm selftests migration (its THP case) and rmap (whole)
# giving the same results with the offload started on the engine as
# without it (mmselftests.sh runs every case of both).
# migrate.sh is soft_dma's, with its error injection.
#
# migrate_load PROVIDER [SOFT_DMA_CHANNELS]: every module a migration
# through the offload needs, in one place (this suite and
# bench/migrate.sh load nothing else): the offload, dma_migrate.ko (after
# dmacopy.ko), and the benchmark (the tool's device for the cpu row, and
# DMA_MIGRATE_OFFLOAD for migrate_hold), then the provider: "hw" the board's
# engine (hw_load_modules: HWDMA_MODULES, and its channels probed),
# "soft_dma" soft_dma with that many channels.
migrate_load() {
	load_module dma_migrate || return 1
	load_module dma_map_benchmark || return 1
	case $1 in
	hw) hw_load_modules ;;
	soft_dma) load_module soft_dma "channels=$2" ;;
	*) echo "migrate_load: provider $1: hw or soft_dma" >&2; return 2 ;;
	esac
}

HWMIG_OUT=/tmp/hwmigrate.out

# hwmig_run PREP CHANNELS ORDER BYTES [TOOL_OPTIONS...]: the tool's
# -m migrate, one run, the cpu row and PREP's over CHANNELS of the
# board's channels, folios of ORDER; the tool verifies every move (each
# page's node, the pattern) and fails when one is wrong. Its output in
# $HWMIG_OUT.
hwmig_run() {
	_hr_prep=$1
	_hr_ch=$2
	_hr_o=$3
	_hr_b=$4
	shift 4
	output_in "$HWMIG_OUT" "$TOOL" -m migrate -p "$_hr_prep" \
		--channels "$_hr_ch" ${HWDMA_DEVICE:+--device "$HWDMA_DEVICE"} \
		--folio-order "$_hr_o" --bytes "$_hr_b" -r 1 -w 0 "$@"
}

# hwmig_whole: hwmig_run's rows: the census ("# folios:") is of one size,
# and every row moved as many folios as it has, the offload rows each
# offloading them all, none fallen back; the tool did not warn of a split
hwmig_whole() {
	awk '/^# folios: / {
			s = $0
			sub(/^# folios: /, "", s)
			sub(/ \(.*/, "", s)
			n = split(s, part, ", ")
			for (i = 1; i <= n; i++) {
				split(part[i], f, " x ")
				total += f[1]
			}
			census = n
		}
		/^# WARNING/ { print; bad = 1 }
		$1 == "cpu" || $1 ~ /^prep_memcpy(_sg|_vec)?$/ {
			rows++
			if ($4 != total) {
				print "row " $1 ": " $4 " folios moved, the census has " total
				bad = 1
			}
			# mode chan folio folios GB/s (3) move_ms (3) offloaded fallback
			if ($1 != "cpu" && ($11 != total || $12 != 0)) {
				print "row " $1 ": " $11 " offloaded, " $12 " fallen back of " total
				bad = 1
			}
		}
		END {
			if (census != 1)
				print "census of " census " folio sizes (one expected): " s
			exit !(census == 1 && rows == 2 && !bad)
		}' "$HWMIG_OUT" || { cat "$HWMIG_OUT"; return 1; }
}

# hwmig_movers N PREP: N processes at once, each moving 1 MB of 4 KB
# folios of its own over 4 channels, every page of each verified by the
# tool; the offload row's folios offloaded, declined or fallen back, as
# busy channels decide, and the tool saw no error
hwmig_movers() {
	hwmig_run "$2" 4 0 1M --movers "$1" || return 1
	grep -Eq "^prep_$2 " "$HWMIG_OUT" || { cat "$HWMIG_OUT"; return 1; }
}

hwmig_released() {
	# shellcheck disable=SC2046 # the channels' names, a word each
	channels_released $(hw_channels)
}

# hwmig_dev: the platform device of the channel the offload takes first
# (the first of the driver's, HWDMA_DEVICE's where named)
hwmig_dev() {
	_hd_c=$(hw_channels | head -n 1)
	[ -n "$_hd_c" ] || return 1
	basename "$(readlink -f "/sys/class/dma/$_hd_c/device")"
}

# hwmig_unbind_running DEV: move_pages_offload's one move_pages() of 16 MB
# over 1 channel (DEV's), per-segment memcpy; its thread unbinds DEV once
# a batch is copied, while the move goes on: the batches after it copy
# with the CPU, every folio counted once, the data intact. DEV bound
# again after, its channels back.
hwmig_unbind_running() {
	"$PROJECT/bin/move_pages_offload" prep=0 channels=1 pages=4096 \
		expect=unbind unbind="$1" during=1
	_hu_rc=$?
	echo "$1" > "/sys/bus/platform/drivers/$HWDMA_DRIVER/bind" || _hu_rc=1
	hw_load_modules || _hu_rc=1
	return $_hu_rc
}

# hwmig_selftest NAME [ARGS...]: the kernel's mm selftest NAME
# ($PROJECT/NAME, scripts/build-mm-selftests.sh's, copied in by the .t)
# without the offload, then under migrate_hold with it started on the
# engine (memcpy_sg over HWDMA_CHANNELS channels, every reason of
# move_pages() and migrate_pages()): the same result a test (the
# harness's "ok N NAME", "not ok", "# SKIP" lines) and the same exit
# status; the moves went through the offload (folios offloaded, none
# fallen back, no error). With --cpu the moves are of folios the hook
# never hands over (hugetlb ones, the CPU's): the offload saw none, and
# no error. Outputs in /tmp/NAME.off, /tmp/NAME.on.
hwmig_selftest() {
	_hs_cpu=0
	if [ "$1" = --cpu ]; then
		_hs_cpu=1
		shift
	fi
	_hs=$1
	shift
	if [ ! -x "$PROJECT/$_hs" ]; then
		echo "no $PROJECT/$_hs: the .t copies it in when scripts/build-mm-selftests.sh built it"
		return 1
	fi
	# shm_open() (rmap's shm case) wants a tmpfs at /dev/shm, as on any
	# system; the guest's init mounts none
	if ! grep -q ' /dev/shm ' /proc/mounts; then
		mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm || return 1
	fi
	_hs_d=/tmp/selftest-$_hs
	mkdir -p "$_hs_d" || return 1
	(cd "$_hs_d" && "$PROJECT/$_hs" "$@") > "/tmp/$_hs.off" 2>&1
	_hs_off=$?
	(cd "$_hs_d" && "$PROJECT/bin/migrate_hold" prep=1 \
		channels="$HWDMA_CHANNELS" -- "$PROJECT/$_hs" "$@") > "/tmp/$_hs.on" 2>&1
	_hs_on=$?
	grep -E '^(not )?ok [0-9]+ ' "/tmp/$_hs.off" | sed 's/ # [0-9.]* *s$//' > /tmp/selftest.a
	grep -E '^(not )?ok [0-9]+ ' "/tmp/$_hs.on" | sed 's/ # [0-9.]* *s$//' > /tmp/selftest.b
	echo "# $_hs without the offload (exit $_hs_off): $(grep -E '^# Totals' "/tmp/$_hs.off")"
	echo "# $_hs with it (exit $_hs_on): $(grep -E '^# Totals' "/tmp/$_hs.on")"
	echo "# $(grep '^offload:' "/tmp/$_hs.on")"
	_hs_rc=0
	if [ ! -s /tmp/selftest.a ] || ! cmp -s /tmp/selftest.a /tmp/selftest.b ||
	   [ "$_hs_off" != "$_hs_on" ]; then
		echo "results differ:"
		diff /tmp/selftest.a /tmp/selftest.b
		cat "/tmp/$_hs.off" "/tmp/$_hs.on"
		_hs_rc=1
	fi
	awk -v cpu="$_hs_cpu" '/^offload:/ {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2]
		}
		found = 1
	}
	END {
		if (cpu)
			exit !(found && v["folios"] == 0 && v["errors"] == 0)
		exit !(found && v["offloaded"] > 0 && v["fallback"] == 0 &&
		       v["errors"] == 0)
	}' "/tmp/$_hs.on" || {
		if [ "$_hs_cpu" = 1 ]; then
			echo "the offload saw folios it must leave to the CPU: $(grep '^offload:' "/tmp/$_hs.on")"
		else
			echo "the offload did not copy them all: $(grep '^offload:' "/tmp/$_hs.on")"
		fi
		_hs_rc=1
	}
	return $_hs_rc
}

# hwmig_ready SUITE: the machine names an engine and its kernel can move
# pages through the offload; else SUITE's one skip, saying why, and 1
hwmig_ready() {
	if [ -z "${HWDMA_DRIVER:-}" ]; then
		tap_skip "$1: this machine names no engine (HWDMA_DRIVER)"
		return 1
	fi
	if ! migrate_ready 2>"/tmp/$1.why"; then
		tap_skip "$1: $(head -n 1 "/tmp/$1.why")"
		return 1
	fi
}

suite_hwmigrate() {
	hwmig_ready hwmigrate || return
	check "hwmigrate: dma_migrate, the benchmark and $HWDMA_DRIVER's channels" migrate_load hw
	_hm_forms=memcpy
	have_memcpy_sg && _hm_forms="$_hm_forms memcpy_sg"
	have_memcpy_vec && _hm_forms="$_hm_forms memcpy_vec"
	# 4 KB folios (a descriptor or an sg entry each) over 1 and all
	# channels, then 2 MB ones (a THP, mapped as 64 KB segments:
	# max_seg_size) over one: the share-out among channels is the 4 KB
	# runs', the segments of a large folio the 2 MB run's
	for _o in 0 9; do
		_hb=2M
		_hm_chs="1 $HWDMA_CHANNELS"
		[ "$_o" = 0 ] || { _hb=8M; _hm_chs=1; }
		for _ch in $_hm_chs; do
			for _p in $_hm_forms; do
				check "hwmigrate: $_p, $_ch channel(s), $((4 << _o)) KB folios, $_hb node 0 -> 1 -> 0: every move verified" \
					hwmig_run "$_p" "$_ch" "$_o" "$_hb"
				check "hwmigrate: ... every folio moved whole and offloaded" \
					hwmig_whole
			done
		done
	done
	check "hwmigrate: ... channels released" hwmig_released
	for _m in 2 4; do
		check "hwmigrate: $_m movers at once over 4 channels, memcpy_sg: every byte verified" \
			hwmig_movers "$_m" memcpy_sg
	done
	check "hwmigrate: ... channels released" hwmig_released
	_hm_dev=$(hwmig_dev)
	klog_mark
	check "hwmigrate: $_hm_dev unbound from $HWDMA_DRIVER while a move runs: the move completes, later batches by the CPU, every folio counted, data intact; bound again" \
		hwmig_unbind_running "$_hm_dev"
	check_klog_has "hwmigrate: ... dmacopy released the channel of the unbound provider" \
		"its provider $_hm_dev is being unbound: the channel is released"
	check_klog_has "hwmigrate: ... the offload heard of the unbind" \
		'dma[0-9]+chan[0-9]+: migration copies with the CPU until offloading=0'
	check "hwmigrate: ... START works again after the rebind" \
		"$PROJECT/bin/move_pages_offload" prep=0 channels=1 pages=256
	check "hwmigrate: ... channels released" hwmig_released
	# the kernel's mm selftests, with the offload and without:
	# migration's private_anon_thp (20 s of move_pages() of a THP to and
	# fro while two threads read it; its five other cases take 20 s each:
	# the mmselftests suite runs them, scripts/mm-selftests.sh), and rmap
	# whole (a page of each kind, anon, shm, file and KSM, moved while
	# mapped by 40 processes). The .t copies them in: one missing is a
	# failed build, a failed check.
	for _hm_t in "migration -t private_anon_thp" rmap; do
		# shellcheck disable=SC2086 # the selftest and its arguments
		set -- $_hm_t
		check "hwmigrate: the kernel's mm selftest $*: the same result with the offload on $HWDMA_DRIVER as without, its moves offloaded" \
			hwmig_selftest "$@"
		check "hwmigrate: ... channels released" hwmig_released
	done
	check "hwmigrate: the benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "hwmigrate"
}
