#!/usr/bin/env python3
"""The Python baseline: os.walk + json.load of every ckpt-info.json, as a
short script would do it. Prints the median time of REPS repetitions; with
`once` instead of REPS, scans once and prints a line per epoch (its folder and
the size of its ckpt-info.json), the whole-process counterpart of `ckpt scan`."""
import json
import os
import statistics
import sys
import time


def scan(top, lines=None):
    infos = 0
    for dirpath, _dirnames, filenames in os.walk(top):
        if "ckpt-info.json" in filenames:
            with open(os.path.join(dirpath, "ckpt-info.json")) as f:
                info = json.load(f)
            if lines is not None:
                lines.append(f"{dirpath} {len(info)}\n")
            infos += 1
    return infos


def main():
    top = sys.argv[1]
    if sys.argv[2:3] == ["once"]:
        lines = []
        scan(top, lines)
        sys.stdout.write("".join(lines))
        return
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    count = scan(top)  # warm
    walls, cpus = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        scan(top)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    print(f"files {count}")
    print(f"python_s {statistics.median(walls):.6f}")
    print(f"python_cpu_s {statistics.median(cpus):.6f}")


if __name__ == "__main__":
    main()
