#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The cache-maintenance counter (scripts/qemu-plugin/dcount.c, a QEMU TCG
# plugin) on a program with known numbers of each instruction
# (dcount/known.c, whose top lists them), run under qemu-aarch64 (user
# mode): exact counts inside the windows, per window (min, max) and in all,
# and exact counts outside them, which the windows exclude. The task
# tracking on a program that switches between two made-up tasks
# (dcount/switch.c): what the other task runs is excluded. Then the
# refusals: the plugin under an x86 QEMU, bad arguments, and the guest's
# marker program built for x86. A missing qemu-aarch64 or cross compiler
# fails (scripts/setup.sh installs them).
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

have() {
	command -v "$1" >/dev/null || { echo "no $1: scripts/setup.sh installs it"; return 1; }
}

check "qemu-aarch64 and qemu-x86_64 (qemu-user) are installed" have qemu-aarch64
have qemu-x86_64 >/dev/null || tap_not_ok "no qemu-x86_64"
check "the aarch64 cross compiler is installed" have aarch64-linux-gnu-gcc

build_plugin() {
	"$TOP/scripts/qemu-plugin/build.sh" > "$T/so.path" || return 1
	so=$(tail -n 1 "$T/so.path")
	[ -f "$so" ]
}
so=
check "the plugin builds against QEMU 7.2's qemu-plugin.h" build_plugin
check "the known program builds (static, aarch64)" \
	aarch64-linux-gnu-gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror \
	-o "$T/known" "$TOP/tools/testing/host/dcount/known.c"

run_known() {
	qemu-aarch64 -plugin "$so,out=$T/out" "$T/known" &&
		grep -q '^dcount 2 end$' "$T/out"
}
check "the known program runs under the plugin" run_known

# expect LINE...: each LINE is in the second dump, and the dump has no
# other count lines
expect_dump() {
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(grep '^dcount 2 ' "$T/out" | grep -v ' end$' | sort)
	[ "$want" = "$got" ] && return 0
	echo "expected:"; echo "$want"; echo "got:"; echo "$got"
	return 1
}
check "inside the windows: each kind, per window and in all, exactly" \
	expect_dump \
	"dcount 2 window test windows 3 interrupted 0 excluded 0 abandoned 0 unbalanced 0" \
	"dcount 2 count test dc_cvac 10 0 10" \
	"dcount 2 count test dc_civac 10 0 10" \
	"dcount 2 count test dc_cvau 10 0 10" \
	"dcount 2 count test dc_zva 1 0 1" \
	"dcount 2 count test dsb_ish 11 0 10" \
	"dcount 2 count test dsb_sy 1 0 1" \
	"dcount 2 count test dsb_st 1 0 1" \
	"dcount 2 count test dmb_ishld 1 0 1" \
	"dcount 2 count test isb 2 0 2" \
	"dcount 2 outside dsb_sy 3" \
	"dcount 2 outside dmb_ish 2" \
	"dcount 2 outside isb 1" \
	"dcount 2 outside dc_cvac 4" \
	"dcount 2 outside dsb_nsh 5"
check_output "the dump marker resets: the last dump at exit is empty" \
	'^dcount 3 end$' sed -n '/^dcount 3 /p' "$T/out"
check_fails "... and has no count" grep -q '^dcount 3 \(count\|outside\|window\)' "$T/out"

# the task tracking (dcount/switch.c): a window counts its task only
check "the task-switch program builds (static, aarch64)" \
	aarch64-linux-gnu-gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror \
	-o "$T/switch" "$TOP/tools/testing/host/dcount/switch.c"
run_switch() {
	local addr
	addr=$(aarch64-linux-gnu-nm "$T/switch" | awk '$3 == "fake_switch" { print $1 }')
	[ -n "$addr" ] || { echo "no fake_switch in the program"; return 1; }
	qemu-aarch64 -plugin "$so,out=$T/sw.out,switch=0x$addr" "$T/switch" &&
		grep -q '^dcount 2 end$' "$T/sw.out"
}
check "the task-switch program runs under the plugin (switch=fake_switch)" run_switch
expect_switch() {
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(grep '^dcount 2 ' "$T/sw.out" | grep -v ' end$' | sort)
	[ "$want" = "$got" ] && return 0
	echo "expected:"; echo "$want"; echo "got:"; echo "$got"
	return 1
}
check "a window counts only while its task runs: another task's 2 dsb excluded" \
	expect_switch \
	"dcount 2 window test windows 1 interrupted 0 excluded 2 abandoned 0 unbalanced 0" \
	"dcount 2 count test dsb_ish 2 2 2" \
	"dcount 2 switches 3 3"

# fails_saying PATTERN COMMAND...: COMMAND fails, and says PATTERN
fails_saying() {
	local pat=$1
	shift
	! "$@" > "$T/msg" 2>&1 || { echo "exit status 0"; cat "$T/msg"; return 1; }
	cat "$T/msg"
	grep -q -- "$pat" "$T/msg"
}
check_output "an x86 QEMU: the plugin says it counts AArch64 only" \
	'dcount: counts AArch64 instructions; this QEMU emulates x86_64' \
	fails_saying 'this QEMU emulates' qemu-x86_64 -plugin "$so" /bin/true
check_output "an unknown argument is named" \
	'dcount: unknown argument bogus=1' \
	fails_saying 'unknown argument' qemu-aarch64 -plugin "$so,bogus=1" "$T/known"
check_output "a vector table address that cannot be one is refused" \
	'dcount: vectors=0x1234: want the 2 KiB-aligned address' \
	fails_saying 'vectors=' qemu-aarch64 -plugin "$so,vectors=0x1234" "$T/known"

check_output "a cpu_switch_to address that cannot be one is refused" \
	'dcount: switch=0x1001: want the address of cpu_switch_to' \
	fails_saying 'switch=' qemu-aarch64 -plugin "$so,switch=0x1001" "$T/known"

x86_mark() {
	gcc -O2 -Wall -Wextra -Werror -o "$T/mark" "$TOP/tools/testing/guest/src/dcount_mark.c" || return 1
	"$T/mark" dump 2>&1
	[ $? = 2 ]
}
check_output "the guest's marker program on x86 says why nothing is counted" \
	'this guest is not arm64, so it has no markers and nothing is counted' x86_mark
tap_end
