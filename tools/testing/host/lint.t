#!/bin/bash
# Static checks: checkpatch --strict, sparse, W=1, -Wall -Wextra, the
# Python's pyflakes and the shell's shellcheck (scripts/lint.sh).
exec "$(dirname "$0")/../../../scripts/lint.sh"
