#!/usr/bin/env bash
# Run make targets one after another as the phases of `make test`, stop at the first that
# fails, and print at the end how long each took (wall time), the failed one marked:
#   scripts/phases.sh venv lint typecheck ...
# A phase may add lines of its own to $PHASE_TIMES (the two test lanes of pytest-both do).
set -uo pipefail

PHASE_TIMES=$(mktemp "${TMPDIR:-/tmp}/lanterloo-phases.XXXXXX")
export PHASE_TIMES
trap 'rm -f "$PHASE_TIMES"' EXIT

summary() {
    echo
    echo "==== Wall time of each phase ===="
    cat "$PHASE_TIMES"
}

total_start=$(date +%s)
for phase in "$@"; do
    start=$(date +%s)
    make --no-print-directory "$phase"
    status=$?
    took=$(($(date +%s) - start))
    if [ "$status" != 0 ]; then
        printf '%-32s %5ss  FAILED (exit %s)\n' "$phase" "$took" "$status" >>"$PHASE_TIMES"
        summary
        exit "$status"
    fi
    printf '%-32s %5ss\n' "$phase" "$took" >>"$PHASE_TIMES"
done
printf '%-32s %5ss\n' "all" "$(($(date +%s) - total_start))" >>"$PHASE_TIMES"
summary
