#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest test runner: run.sh SUITE... sources tests/<suite>.sh for each
# suite, runs suite_<suite>, and prints one TAP stream with the plan last.
# Exit status 0 only when every assertion passed.

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
	echo "# suite $suite ($(dma_config), $(uname -r))"
	# shellcheck source=/dev/null # a suite named at run time; lint.sh checks each
	. "./$suite.sh"
	"suite_$suite"
done

tap_end
