"""Merge the seconds each test file took in the lanes of a run (pytest --lane-record FILE,
one file a lane) into the JSON that tests/lanes.py balances the lanes by:
    python scripts/durations.py .durations-*.json > tests/durations.json
A file that ran in both lanes (its tests that run on both databases) keeps the lane where it
ran whole: the one with more tests, then more seconds."""

import json
import sys
from pathlib import Path


def main(paths: list[str]) -> None:
    merged: dict[str, dict[str, float]] = {}
    for path in paths:
        for module, entry in json.loads(Path(path).read_text(encoding="utf-8")).items():
            known = merged.get(module)
            if known is None or (entry["tests"], entry["seconds"]) > (
                known["tests"],
                known["seconds"],
            ):
                merged[module] = entry
    json.dump(dict(sorted(merged.items())), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python scripts/durations.py LANE.json [LANE.json ...]")
    main(sys.argv[1:])
