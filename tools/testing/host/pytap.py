# SPDX-License-Identifier: GPL-2.0-only
"""The python3 side of run_py_tests (lib.sh): checks a .t script runs.

Each check prints "ok - DESC" or "not ok - DESC" and, on failure, the
traceback; run_py_tests numbers them and turns every other line into a
TAP comment. done() says the script ran to its end: a script that stops
early fails. TOP is the checkout, FIX the host tests' fixtures/.
"""
import os
import traceback

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(FIX))))


def check(desc, fn):
    """Run fn(); it passes unless it raises."""
    try:
        fn()
        print("ok - " + desc)
    except Exception:  # every failure is the check's, and reported
        print("not ok - " + desc)
        print(traceback.format_exc().strip())


def close(x, y, tol):
    """Assert that x and y differ by tol at most."""
    assert abs(x - y) <= tol, (x, y, tol)


def done():
    print("ok - done")
