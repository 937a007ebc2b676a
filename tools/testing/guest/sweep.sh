#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/sweep.py --vm (busybox sh, in the test VM):
#
#   sh tests/sweep.sh [--map] [--soft-dma 'PARAM=VALUE...'] CELLS
#
# CELLS, a file sweep.py writes, has one cell a line: its index, how many
# times to run the tool, and the tool's arguments as shell words
# ("3 1 -m dmaengine --channels 2 ... --json"). This script sets the VM
# up (the benchmark module, and soft_dma with --soft-dma's load-time
# parameters and run-time knobs, or for --map the edu device bound), runs
# the cells in order, stopping a cell at its first failure, and prints one
# JSON object a line, each with "sweep" saying what it is:
#
#   {"sweep":"system","rc":0,"err":"","tool":{...}}   the tool's --system
#   {"sweep":"setup","error":"...","log":"..."}        setup failed: the end
#   {"sweep":"ready"}                                  the cells start
#   {"sweep":"run","cell":3,"inv":0,"rc":0,"t0":12.34,"t1":15.67,
#    "err":"...","tool":{...}}                         one run of the tool
#   {"sweep":"done"}                                   every cell ran
#
# t0 and t1 are the guest's clock (/proc/uptime) around the run; err is
# the tool's stderr. "tool" is its output when it succeeded with one line
# of JSON; otherwise "out" holds its output as a string. The host reads
# these lines and ignores every other one.

. "$PROJECT/tests/lib.sh"

SWEEP_TMP=${TMPDIR:-/tmp}
SWEEP_OUT=$SWEEP_TMP/sweep.out
SWEEP_ERR=$SWEEP_TMP/sweep.err
SWEEP_SETUP=$SWEEP_TMP/sweep.setup

# sweep_output: ',"tool":...' when $SWEEP_OUT is one line of JSON and
# $1 (the exit status) is 0, else ',"out":"..."'
sweep_output() {
	if [ "$1" = 0 ] && [ "$(wc -l < "$SWEEP_OUT")" -eq 1 ] &&
	   [ "$(head -c 1 "$SWEEP_OUT")" = "{" ] &&
	   [ "$(tail -c 2 "$SWEEP_OUT")" = "}" ]; then
		printf ',"tool":'
		tr -d '\n' < "$SWEEP_OUT"
	else
		printf ',"out":'
		json_string "$SWEEP_OUT"
	fi
}

# sweep_record KIND FIELDS RC: one line, {"sweep":KIND FIELDS,"rc":RC,
# "err":...} and the tool's output, from $SWEEP_OUT and $SWEEP_ERR
sweep_record() {
	printf '{"sweep":"%s"%s,"rc":%s,"err":' "$1" "$2" "$3"
	json_string "$SWEEP_ERR"
	sweep_output "$3"
	printf '}\n'
}

# sweep_setup_failed MESSAGE: say so, with what setup printed, and end
sweep_setup_failed() {
	printf '{"sweep":"setup","error":'
	echo "$*" | json_string
	printf ',"log":'
	json_string "$SWEEP_SETUP"
	printf '}\n'
	exit 1
}

# sweep_setup MAP SOFT_DMA_WORDS: the modules (the benchmark, and the
# migration offload for -m migrate's cells), then soft_dma or the edu
# device; their messages in $SWEEP_SETUP
sweep_setup() {
	: > "$SWEEP_SETUP"
	load_module dma_map_benchmark >> "$SWEEP_SETUP" 2>&1 ||
		sweep_setup_failed "insmod dma_map_benchmark.ko failed"
	load_module dma_migrate >> "$SWEEP_SETUP" 2>&1 ||
		sweep_setup_failed "insmod dma_migrate.ko failed"
	if [ "$1" = 1 ]; then
		bind_benchmark >> "$SWEEP_SETUP" 2>&1 ||
			sweep_setup_failed "could not bind the edu PCI device to dma_map_benchmark"
		return
	fi
	_params=
	_knobs=
	for _w in $2; do
		if sd_is_knob "$_w"; then
			_knobs="$_knobs $_w"
		else
			_params="$_params $_w"
		fi
	done
	# shellcheck disable=SC2086
	load_module soft_dma $_params >> "$SWEEP_SETUP" 2>&1 ||
		sweep_setup_failed "insmod soft_dma.ko${_params} failed"
	for _w in $_knobs; do
		sd_knob "${_w%%=*}" "${_w#*=}" >> "$SWEEP_SETUP" 2>&1 ||
			sweep_setup_failed "soft_dma knob $_w refused"
	done
}

# sweep_cells CELLS: run them, a record a run
sweep_cells() {
	while read -r _id _n _args || [ -n "$_id" ]; do
		[ -n "$_id" ] || continue
		eval "set -- $_args"
		_i=0
		while [ "$_i" -lt "$_n" ]; do
			read -r _t0 _ < /proc/uptime
			"$TOOL" "$@" > "$SWEEP_OUT" 2> "$SWEEP_ERR" < /dev/null
			_rc=$?
			read -r _t1 _ < /proc/uptime
			sweep_record run ",\"cell\":$_id,\"inv\":$_i,\"t0\":$_t0,\"t1\":$_t1" "$_rc"
			[ "$_rc" = 0 ] || break
			_i=$((_i + 1))
		done
	done < "$1"
}

sweep_main() {
	_map=0
	_soft=
	while [ $# -gt 1 ]; do
		case $1 in
		--map) _map=1; shift ;;
		--soft-dma) _soft=$2; shift 2 ;;
		*) break ;;
		esac
	done
	[ $# = 1 ] && [ -r "$1" ] || {
		echo "usage: sweep.sh [--map] [--soft-dma PARAMS] CELLS" >&2
		exit 2
	}
	"$TOOL" --system > "$SWEEP_OUT" 2> "$SWEEP_ERR" < /dev/null
	sweep_record system "" $?
	sweep_setup "$_map" "$_soft"
	echo '{"sweep":"ready"}'
	sweep_cells "$1"
	echo '{"sweep":"done"}'
}

sweep_main "$@"
