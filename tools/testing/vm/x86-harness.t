#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/vm/run.sh itself, on Debian's stock 6.12 kernel: the guest
# command's output and exit status come back; a kernel that panics or hangs
# in its own boot, before the command starts, is booted again a bounded
# number of times and said so; a crash after the command has started is
# never retried and ends with 125 and the kernel log.
. "$(dirname "$0")/../host/lib.sh"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RUN=$TOP/scripts/vm/run.sh

# vm NAME ENV... -- RUN_ARGS...: run.sh's stdout, stderr and status in $WORK
# (the guest command is one shell string, as run.sh passes it to sh -c)
vm() {
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	env "${envs[@]}" "$RUN" -t 300 "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"
	echo $? > "$WORK/$name.rc"
}

# vm_check NAME DESC TEST...: TEST (a shell expression) over NAME's files
vm_check() {
	local name=$1 desc=$2
	shift 2
	if (cd "$WORK" && eval "$*"); then
		tap_ok "$desc"
	else
		tap_not_ok "$desc"
		{ echo "rc=$(cat "$WORK/$name.rc")"; tail -n 15 "$WORK/$name.err"; } | sed 's/^/#   /'
	fi
}

vm status VM_BOOT_ATTEMPTS=3 -- -- 'echo hello from $DMA_BENCH_MACHINE; exit 3'
vm_check status "the guest command's output comes back" "grep -qx 'hello from x86' status.out"
vm_check status "and so does its exit status (3)" '[ "$(cat status.rc)" = 3 ]'
vm_check status "a command that fails is not booted again" "! grep -q 'booting again' status.err"

# no init: the kernel panics before anything of ours runs
vm panic VM_BOOT_ATTEMPTS=2 -- -a rdinit=/nonexistent -- true
vm_check panic "a kernel panic in boot: exit 125" '[ "$(cat panic.rc)" = 125 ]'
vm_check panic "booted again once, naming the panic" \
	"[ \"\$(grep -c 'boot [0-9] failed before the command started (Kernel panic' panic.err)\" = 1 ]"
vm_check panic "the guest command never ran" '[ ! -s panic.out ]'

# an init that never starts the command: a hang in boot
vm hang VM_BOOT_ATTEMPTS=2 VM_BOOT_TIMEOUT=10 -- -a rdinit=/bin/sh -- true
vm_check hang "a hang in boot: ended after VM_BOOT_TIMEOUT and booted again" \
	"grep -q 'boot 1 failed before the command started (the kernel had not started the command after 10s)' hang.err"
vm_check hang "and then given up, not waited for to the timeout" \
	"[ \"\$(cat hang.rc)\" = 125 ] && [ \"\$(grep -c 'booting again' hang.err)\" = 1 ]"

# a crash once the command has started
vm crash VM_BOOT_ATTEMPTS=3 -- -- 'echo before; echo c > /proc/sysrq-trigger; echo after'
vm_check crash "a crash in the command: exit 125" '[ "$(cat crash.rc)" = 125 ]'
vm_check crash "its output up to the crash came back" "grep -qx before crash.out && ! grep -q after crash.out"
vm_check crash "it is not booted again" "! grep -q 'booting again' crash.err"
vm_check crash "the kernel log tail names the crash" "grep -q 'sysrq' crash.err"

tap_end
