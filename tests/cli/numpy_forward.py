"""An independent forward pass over `perflab export --npy DIR`, in NumPy only (no perflab):
reads manifest.json and the .npy files, applies the preprocessing and each layer as the
manifest's "computes" sentence says, in float64 (an int8 model: float32 and exact integer
products, as its "quantized" entries say), on Fashion-MNIST's test split read straight
from the gzip'd IDX files, and prints as JSON {"n", "correct", "accuracy", "misclassified":
the first 100 wrong images as [index, predicted], "same_as_numpy_save": every .npy file is
byte for byte what numpy.save writes for its array}.

usage: python3 numpy_forward.py EXPORT_DIR DATA_DIR
Used by tests/cli/train.test.mjs to check `perflab evaluate`'s accuracy; also an example of
reading the export without perflab.
"""
import gzip
import io
import json
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

F32 = np.float32


def idx(path, header_bytes):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=header_bytes)


def windows(x, kernel, stride):
    """(N, C, H, W) -> (N, C, Ho, Wo, kernel, kernel), the windows a stride apart."""
    return sliding_window_view(x, (kernel, kernel), axis=(2, 3))[:, :, ::stride, ::stride]


def forward(layer, x, folder):
    def param(name):
        return np.load(os.path.join(folder, layer["parameters"][name]["file"])).astype(np.float64)

    kind = layer["type"]
    if kind == "Linear" and "quantized" in layer:
        # The int8 path, in float32 and int64 as the manifest's "computes" says: the input's
        # codes, the exact integer product, then the dequantization in float32.
        raw = lambda name: np.load(os.path.join(folder, layer["parameters"][name]["file"]))
        s, zp = raw("input_scale")[0], int(raw("input_zero_point")[0])
        q = np.clip(np.rint(x.astype(F32) / s) + F32(zp), F32(0), F32(255)).astype(np.int64)
        acc = (q - zp) @ raw("weight_int8").astype(np.int64).T
        y = acc.astype(F32) * (s * raw("weight_scale"))
        return y + raw("bias") if layer["bias"] else y
    if kind == "Linear":
        y = x @ param("weight")
        return y + param("bias") if layer["bias"] else y
    if kind == "Conv2d":
        p, s, k = layer["padding"], layer["stride"], layer["kernel"]
        xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
        y = np.einsum("nchwuv,ocuv->nohw", windows(xp, k, s), param("weight"), optimize=True)
        return y + param("bias")[None, :, None, None] if layer["bias"] else y
    if kind == "ReLU":
        return np.maximum(x, 0)
    if kind == "MaxPool2d":
        return windows(x, layer["kernel"], layer["stride"]).max(axis=(-2, -1))
    if kind == "Flatten":
        return x.reshape(len(x), -1)
    raise SystemExit(f"numpy_forward.py: no NumPy forward for layer type {kind}")


def main():
    folder, data = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    labels = idx(os.path.join(data, "t10k-labels-idx1-ubyte.gz"), 8)
    pixels = idx(os.path.join(data, "t10k-images-idx3-ubyte.gz"), 16).astype(np.float64)
    pre = manifest["preprocessing"]
    if "quantization" in manifest:
        # A quantized model's codes depend on its inputs' float32 values: float32 throughout,
        # the preprocessing as a table of the 256 pixel values, as perflab computes it.
        table = (np.arange(256, dtype=F32) * F32(pre["scale"]) - F32(pre["mean"])) / F32(pre["std"])
        x = table[pixels.astype(np.uint8)]
    else:
        x = (pixels * pre["scale"] - pre["mean"]) / pre["std"]
    x = x.reshape([len(labels)] + manifest["input"])
    for layer in manifest["layers"]:
        x = forward(layer, x, folder)
    predicted = np.argmax(x, axis=1)
    correct = int((predicted == labels).sum())
    wrong = np.flatnonzero(predicted != labels)[:100]
    same = True
    for layer in manifest["layers"]:
        for p in layer["parameters"].values():
            with open(os.path.join(folder, p["file"]), "rb") as f:
                written = f.read()
            again = io.BytesIO()
            np.save(again, np.load(io.BytesIO(written)))
            same = same and again.getvalue() == written
    print(json.dumps({"n": len(labels), "correct": correct, "accuracy": correct / len(labels),
                      "misclassified": [[int(i), int(predicted[i])] for i in wrong],
                      "same_as_numpy_save": same}))


if __name__ == "__main__":
    main()
