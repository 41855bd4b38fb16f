#!/usr/bin/env bash
# Run a command beside a CPU hog: one busy loop per core (HOGS=N for another count), stopped
# when the command ends, whether it passed or failed. The suite must pass so, three times in a
# row (docs/testing.md): a test that needs a quiet machine fails a busy CI.
#   scripts/under_load.sh make test
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 2
fi
hogs=${HOGS:-$(nproc)}
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
for _ in $(seq "$hogs"); do
    python3 -c 'while True: pass' &
    pids+=($!)
done
echo "$0: $hogs busy loops beside: $*"
"$@"
