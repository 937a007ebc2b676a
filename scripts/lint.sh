#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The project's static checks, as TAP: checkpatch --strict (Linux 7.3's)
# on every kernel source and the ABI header, sparse (C=1) and W=1 on the
# modules (and on the KUnit tests, which the stock kernel does not build)
# against the stock 6.12 headers (Debian's sparse cannot check 7.3's:
# Documentation/testing.rst), -Wall -Wextra on the userspace code,
# pyflakes on the Python (the .py files and the Python heredocs of the
# shell scripts and .t files), shellcheck on the shell scripts.
#
# usage: lint.sh [checkpatch] [kernel] [user] [python] [shell]
#        (default: all five)
#
# A check fails when its tool is missing, when a build stops, or when the
# tool exits non-zero, not only when its output shows a finding.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$DMA_BENCH_TOP/tools/testing/guest/tap.sh"

# result DESCRIPTION LOGFILE: ok when LOGFILE is empty, else its lines
result() {
	if [ -s "$2" ]; then
		tap_not_ok "$1"
		head -40 "$2" | tap_diag
	else
		tap_ok "$1"
	fi
}

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
cd "$DMA_BENCH_TOP" || exit 1

# xmacro_findings: checkpatch's output less what it says of X-macros, as
# include/uapi/linux/cxl_mem.h's: a list, "#define NAME(X)", is not one
# expression and uses X again and again; an expander, whose parameters
# are the list's columns "(id, name, unit, modes, migrate)", uses those it
# needs. Fails when findings remain; the totals lines dropped.
xmacro_findings() {
	local f l t rest def found=0
	while IFS=: read -r f l t rest; do
		case $t in
		" ERROR"|" WARNING"|" CHECK") ;;
		*) case $f in total*|"") continue ;; esac
		   printf '%s:%s:%s:%s\n' "$f" "$l" "$t" "$rest"; found=1; continue ;;
		esac
		case $rest in
		COMPLEX_MACRO*|MACRO_ARG_REUSE*|MACRO_ARG_UNUSED*)
			def=$(sed -n "${l}p" "$f" 2>/dev/null)
			case $def in
			"#define "*"(X) \\"|"#define "*"(id, name, unit, modes, migrate)"*)
				continue ;;
			esac ;;
		esac
		printf '%s:%s:%s:%s\n' "$f" "$l" "$t" "$rest"
		found=1
	done
	[ "$found" = 0 ]
}

lint_checkpatch() {
	local src cp files rc
	src=$(linux_source_dir 7.3)
	cp=$src/scripts/checkpatch.pl
	files=$(git ls-files 'kernel/*.c' 'kernel/*.h' 'uapi/*.h' 2>/dev/null ||
		find kernel uapi -name '*.[ch]' ! -path '*/generated/*')
	if [ ! -f "$cp" ]; then
		echo "checkpatch.pl is missing: $cp" > "$log/checkpatch"
	elif [ -z "$files" ]; then
		echo "no kernel source found to check" > "$log/checkpatch"
	else
		# shellcheck disable=SC2086
		perl "$cp" --strict --no-tree --terse --show-types \
			--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $files \
			> "$log/cp.all" 2>&1
		rc=$?
		xmacro_findings < "$log/cp.all" > "$log/cp.out" && rc=0
		# checkpatch exits 1 on any finding, and on its own errors
		[ "$rc" = 0 ] ||
			{ echo "checkpatch.pl exited $rc:"; cat "$log/cp.out"; } > "$log/checkpatch"
	fi
	result "checkpatch --strict (Linux 7.3's): kernel/ and uapi/ are clean" "$log/checkpatch"
}

lint_kernel() {
	local release kdir out rc
	: > "$log/w1"
	release=$(stock_kernel_release) ||
		echo "no 6.12 kernel: scripts/setup.sh" > "$log/w1"
	kdir=/lib/modules/${release:-none}/build
	out=$DMA_BENCH_BUILD/lint
	if [ -s "$log/w1" ]; then
		:
	elif ! command -v sparse > /dev/null; then
		echo "sparse is not installed (scripts/setup.sh installs it)" > "$log/w1"
	elif ! { rm -rf "$out" &&
		 "$DMA_BENCH_TOP/scripts/build-modules.sh" "$kdir" "$out"; } \
		 > "$log/build.out" 2>&1; then
		{ echo "the modules do not build against $kdir:"; cat "$log/build.out"; } > "$log/w1"
	else
		make -C "$out/src" KDIR="$kdir" clean > /dev/null 2>&1
		# the modules, then the KUnit tests (no KUnit in the stock
		# kernel: compiled and checked only, never linked)
		make -C "$out/src" KDIR="$kdir" -j"$(nproc)" W=1 C=1 modules \
			> "$log/make.out" 2>&1 &&
		make -C "$kdir" M="$out/src" -j"$(nproc)" CONFIG_KUNIT=y W=1 C=1 \
			kernel/dma/stat_kunit.o kernel/drivers/dma/memcpy_contract_kunit.o \
			kernel/drivers/dma/dmacopy/dmacopy_kunit.o \
			>> "$log/make.out" 2>&1
		rc=$?
		grep -E 'warning|error|: note:' "$log/make.out" > "$log/w1"
		[ "$rc" = 0 ] ||
			{ echo "make exited $rc:"; tail -20 "$log/make.out"; } >> "$log/w1"
	fi
	result "W=1 and sparse (C=1) against ${release:-no stock kernel}: no warning" "$log/w1"
}

# The tool is built in a copy of its sources: the host tests beside this
# one (make check-host runs two at a time) run the tree's own build.
lint_user() {
	local tmp=$log/tool f
	mkdir -p "$tmp/src"
	{
		project_files 'tools/dma/*' 'uapi/*' | tar -cf - -T - |
			tar -xf - -C "$tmp/src" ||
			echo "the tool's sources cannot be copied"
		make -s -C "$tmp/src/tools/dma" VERSION=lint \
			CFLAGS="-O2 -g -Wall -Wextra" >/dev/null 2>"$tmp/w" ||
			echo "tools/dma does not build"
		cat "$tmp/w"
		for f in tools/testing/guest/src/*.c; do
			gcc -std=gnu11 -O2 -Wall -Wextra -Iuapi -Itools/dma -c -o "$tmp/x.o" "$f" 2>&1 ||
				echo "$f does not build"
		done
	} > "$log/user"
	result "userspace code is clean under -Wall -Wextra" "$log/user"
}

# the project's files matching the patterns, from git (or find, in an
# unpacked tarball)
project_files() {
	local p args=()
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git ls-files "$@"
		return
	fi
	for p in "$@"; do
		args+=(${args[0]:+-o} -path "./$p")
	done
	find . -path ./build -prune -o -type f \( "${args[@]}" \) -print | sed 's|^\./||'
}

# python_heredocs FILE: FILE with every line blanked but those of the
# heredocs fed to python3 (python3 - ... <<'END', run_py_tests <<'END'),
# so that pyflakes' line numbers are FILE's
python_heredocs() {
	awk '
	inside && $0 == term { inside = 0; print ""; next }
	inside { print; next }
	/^[ \t]*(python3 -|run_py_tests)( |$)/ { pending = 1 }
	pending && match($0, /<<-?\047?[A-Za-z_]+\047?/) {
		term = substr($0, RSTART + 2, RLENGTH - 2)
		gsub(/[-\047]/, "", term)
		inside = 1
	}
	!/\\$/ { pending = 0 }
	{ print "" }' "$1"
}

# pyflakes, into $log/python
collect_python() {
	local f py=$log/py rc=0
	if ! command -v pyflakes3 > /dev/null; then
		echo "pyflakes3 is not installed: apt-get install pyflakes3 (scripts/setup.sh installs it)" \
			> "$log/python"
	else
		mkdir -p "$py"
		for f in $(project_files '*.sh' '*.t'); do
			mkdir -p "$py/$(dirname "$f")"
			python_heredocs "$f" > "$py/$f"
			grep -q . "$py/$f" || rm "$py/$f"
		done
		# shellcheck disable=SC2046 # the project's paths hold no spaces
		{ pyflakes3 $(project_files '*.py') || rc=$?
		  (cd "$py" && pyflakes3 $(find . -type f | sed 's|^\./||')) || rc=$?
		} > "$log/python" 2>&1
		[ "$rc" = 0 ] || [ -s "$log/python" ] ||
			echo "pyflakes3 exited $rc" > "$log/python"
	fi
}

lint_python() {
	result "pyflakes: the Python files and the Python heredocs are clean" "$log/python"
}

# The scope of shellcheck: every shell file of the project at -S warning, the
# guest's (tools/testing/guest/, busybox sh) as sh, the others as bash.
# Disabled, for all: SC2034 (a variable set but not read), since the files
# are sourced into each other (lib.sh, tap.sh, a script that sets SAY_AS,
# the guest's suites) and shellcheck, which reads one file, cannot see the
# reader. For the guest's, also SC2046 (an unquoted $(...)): POSIX sh has
# no arrays, and the suites split lists of words (channel and mode names,
# which hold no space or glob) on purpose; and SC2120 (a function's
# optional argument, never passed): its callers are in the other files.
collect_shell() {
	local guest other rc=0
	if ! command -v shellcheck > /dev/null; then
		echo "shellcheck is not installed: apt-get install shellcheck (scripts/setup.sh installs it)" \
			> "$log/shell"
	else
		guest=$(project_files '*.sh' | grep '^tools/testing/guest/')
		other=$(project_files '*.sh' '*.t' | grep -v '^tools/testing/guest/')
		# shellcheck disable=SC2086 # the project's paths hold no spaces
		{ shellcheck -f gcc -S warning -s bash -e SC2034 $other || rc=$?
		  shellcheck -f gcc -S warning -s sh -e SC2034,SC2046,SC2120 $guest || rc=$?
		} > "$log/shell" 2>&1
		[ "$rc" = 0 ] || [ -s "$log/shell" ] ||
			echo "shellcheck exited $rc" > "$log/shell"
	fi
}

lint_shell() {
	result "shellcheck -S warning: the shell scripts are clean" "$log/shell"
}

checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(checkpatch kernel user python shell)
for c in "${checks[@]}"; do
	case $c in
	checkpatch | kernel | user | python | shell) ;;
	*) die "unknown check '$c': checkpatch, kernel, user, python or shell" ;;
	esac
done
# pyflakes and shellcheck need no build: they run on the side, while the
# builds of the other checks keep one core busy, and report in their turn
declare -A collector
for c in "${checks[@]}"; do
	case $c in
	python | shell) "collect_$c" & collector[$c]=$! ;;
	esac
done
for c in "${checks[@]}"; do
	if [ -n "${collector[$c]:-}" ]; then
		wait "${collector[$c]}" ||
			echo "collect_$c stopped: exit $?" >> "$log/$c"
	fi
	"lint_$c"
done

tap_end
