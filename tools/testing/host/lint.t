#!/bin/bash
# Static checks: checkpatch --strict, sparse, W=1, -Wall -Wextra.
exec "$(dirname "$0")/../../../scripts/lint.sh"
