# SPDX-License-Identifier: GPL-2.0-only
"""Helpers of scripts/sweep.py, compare.py and plot.py (standard library)."""
