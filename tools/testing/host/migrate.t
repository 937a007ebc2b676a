#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The migrate mode: its parts that need no kernel (test_migrate.c), then
# migrate_run_in() end to end against a made-up kernel and sysfs tree
# (migrate_fixture.h): the run (test_migrate_run.c) and the offload's
# phases (test_migrate_phases.c); the top of each says what it checks.
. "$(dirname "$0")/lib.sh"
build
out_dir
run_c_tests "$HOST_OUT/test_migrate"
run_c_tests "$HOST_OUT/test_migrate_run"
run_c_tests "$HOST_OUT/test_migrate_phases"
need python3
run_py_tests "$TEST_OUT_DIR" <<'PY'
import json, os, sys
from pytap import FIX, check, done
work = sys.argv[1]

def fixture_is_the_tools():
    tool = json.load(open(os.path.join(work, "migrate.json")))
    fix = json.load(open(os.path.join(FIX, "tool-migrate.json")))
    for k in ("figures", "table"):
        assert tool[k] == fix[k], k
    assert list(tool) == list(fix) and list(tool["results"][0]) == list(fix["results"][0])
check("fixtures/tool-migrate.json (the stand-in tool's model) has the tool's members, "
      "figures and table", fixture_is_the_tools)
done()
PY
tap_end
