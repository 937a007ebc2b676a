#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# uapi/linux/map_benchmark.h, the ABI (Documentation/abi.rst): no function
# in it; it builds as C90 (gcc -std=c90 -pedantic -Werror), C99, C11 and
# C++ (g++ -std=c++98 and -std=c++11), alone and with uapi/phase_list.c,
# which expands the phase list (DMAENGINE_BENCH_PHASES) without C99's
# designated initializers and checks every published layout's size and
# offsets; each build prints the same list, the one below (a phase's
# number is its bit in the masks: a change here is an ABI change). Then
# the report against kernels of other ABI versions (test_report_abi.c).
. "$(dirname "$0")/lib.sh"
build
out_dir

H=$TOP/uapi/linux/map_benchmark.h
SRC=$TOP/tools/testing/host/uapi/phase_list.c
need gcc g++

check "no function in the header" \
	sh -c "! grep -nE '^[[:space:]]*(static|extern|inline)|__builtin|__STDC_VERSION__' '$H'"

cat > "$TEST_OUT_DIR/want" <<'WANT'
0 prep ns 0xb 1
1 submit ns 0xb 1
2 issue ns 0xb 1
3 wait ns 0xb 1
4 map ns 0xb 1
5 unmap ns 0xb 1
6 copy ns 0x4 0
7 convert ns 0x8 0
8 prep_stalls count 0xb 0
9 batch ns 0x0 1
10 build ns 0x0 1
11 mark ns 0x0 1
nr 12 units 3 ver1 0x1ff migrate_ver3 0xe3f
WANT

for std in c90 c99 c11 c++98 c++11; do
	case $std in
	c++*) cc=g++ lang=c++ ;;
	*) cc=gcc lang=c ;;
	esac
	check "the header alone: $cc -std=$std -pedantic -Werror -fsyntax-only" \
		sh -c "printf '#include <linux/map_benchmark.h>\n' |
		       $cc -std=$std -pedantic -Werror -Wall -Wextra -I'$TOP/uapi' -x $lang -fsyntax-only -"
	check "phase_list.c: $cc -std=$std -pedantic -Werror (layouts checked at compile time)" \
		$cc -std="$std" -pedantic -Werror -Wall -Wextra -I"$TOP/uapi" -x $lang \
		-o "$TEST_OUT_DIR/phase_list_$std" "$SRC"
	check "phase_list.c ($std): the list, its units, modes and masks" \
		sh -c "'$TEST_OUT_DIR/phase_list_$std' | diff -u - '$TEST_OUT_DIR/want'"
done

run_c_tests "$HOST_OUT/test_report_abi"
tap_end
