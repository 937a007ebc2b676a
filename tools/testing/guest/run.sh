#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest test runner: run.sh SUITE... sources tests/<suite>.sh for each
# suite, runs suite_<suite>, and prints one TAP stream with the plan last,
# each suite's time in a comment after it. GUEST_SCOPE (lib.sh's
# scope_full) chooses between the full matrices and the debug kernel's
# single passes. Exit status 0 only when every assertion passed.

cd "$(dirname "$0")" || exit 1
. ./lib.sh

klog_mark
KLOG_CLEAN_MARK=$KLOG_MARK
KLOG_CLEAN_ERRORS=$(dma_api_errors)
for suite in "$@"; do
	if [ ! -f "./$suite.sh" ]; then
		tap_not_ok "suite $suite exists"
		continue
	fi
	echo "# suite $suite ($(dma_config), $(uname -r), scope ${GUEST_SCOPE:-full})"
	read -r _suite_t0 _ < /proc/uptime
	# shellcheck source=/dev/null # a suite named at run time; lint.sh checks each
	. "./$suite.sh"
	"suite_$suite"
	read -r _suite_t1 _ < /proc/uptime
	echo "# suite $suite took $((${_suite_t1%.*} - ${_suite_t0%.*})) s"
done

tap_end
