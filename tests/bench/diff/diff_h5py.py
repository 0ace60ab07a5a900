#!/usr/bin/env python3
"""The baseline: the same diff as ckpt::TensorDiff, the way one writes it with
h5py + numpy. Prints "<median seconds> <tensors>".

usage: diff_h5py.py A.h5 B.h5 REPS
"""
import statistics
import sys
import time

import h5py
import numpy as np


def datasets(f):
    out = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            out[name] = obj
    f.visititems(visit)
    return out


def diff(path_a, path_b):
    rows = []
    with h5py.File(path_a, "r") as fa, h5py.File(path_b, "r") as fb:
        da, db = datasets(fa), datasets(fb)
        for key in sorted(set(da) | set(db)):
            if key not in db:
                rows.append((key, "only_a"))
                continue
            if key not in da:
                rows.append((key, "only_b"))
                continue
            if da[key].shape != db[key].shape:
                rows.append((key, "shape_mismatch"))
                continue
            a = da[key][()].astype(np.float64).ravel()
            b = db[key][()].astype(np.float64).ravel()
            d = a - b
            l2 = float(np.sqrt(np.dot(d, d)))
            na = float(np.sqrt(np.dot(a, a)))
            nb = float(np.sqrt(np.dot(b, b)))
            cos = float(np.dot(a, b) / (na * nb)) if na > 0 and nb > 0 else float("nan")
            rel = l2 / na if na > 0 else (0.0 if l2 == 0 else float("inf"))
            mx = float(np.abs(d).max()) if d.size else 0.0
            status = "same" if np.array_equal(a, b) else "changed"
            nan_a, nan_b = int(np.isnan(a).sum()), int(np.isnan(b).sum())
            rows.append((key, status, l2, rel, mx, cos, nan_a, nan_b))
    return rows


def main():
    a, b, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    times = []
    rows = []
    for _ in range(reps):
        t0 = time.perf_counter()
        rows = diff(a, b)
        times.append(time.perf_counter() - t0)
    print(f"{statistics.median(times):.6f} {len(rows)}")


if __name__ == "__main__":
    main()
