"""The weight distribution of a model, recomputed in NumPy only (no perflab) from
`perflab export --npy DIR`: for every layer's "weight" file (biases left out), in layer order,
and over all of them together, the figures `perflab weights --json` prints: count, mean,
population std, min, max, the magnitude percentiles 10..90 (numpy's default linear rule), the
fractions of magnitudes below 0.001, 0.01 and 0.1, and a 60-bin histogram over [min, max]
(numpy.histogram). Printed as JSON {"tensors": [...], "all": {...}}, each with "name"
("LAYER.weight") and those fields.

usage: python3 numpy_weights.py EXPORT_DIR
Used by tests/cli/train.test.mjs to check `perflab weights`.
"""
import json
import os
import sys

import numpy as np

PERCENTILES = [10, 20, 30, 40, 50, 60, 70, 80, 90]
THRESHOLDS = [0.001, 0.01, 0.1]
BINS = 60


def stats(name, w):
    w = w.astype(np.float64).ravel()
    m = np.abs(w)
    counts, _ = np.histogram(w, bins=BINS, range=(w.min(), w.max())) if w.max() > w.min() else (None, None)
    return {
        "name": name,
        "count": int(w.size),
        "mean": float(w.mean()),
        "std": float(w.std()),
        "min": float(w.min()),
        "max": float(w.max()),
        "magnitude_percentiles": [float(np.percentile(m, p)) for p in PERCENTILES],
        "fraction_below": [float(np.mean(m < t)) for t in THRESHOLDS],
        "histogram": None if counts is None else [int(c) for c in counts],
    }


def main(folder):
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    tensors, everything = [], []
    for i, layer in enumerate(manifest["layers"]):
        p = layer.get("parameters", {}).get("weight")
        if p is None:
            continue
        w = np.load(os.path.join(folder, p["file"]))
        tensors.append(stats(f"{i}.weight", w))
        everything.append(w.astype(np.float64).ravel())
    print(json.dumps({"tensors": tensors, "all": stats("all", np.concatenate(everything))}))


if __name__ == "__main__":
    main(sys.argv[1])
