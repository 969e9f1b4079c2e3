#!/usr/bin/env python3
"""Writes a GGUF file with llama.cpp's own writer (PyPI `gguf`, gguf-py) whose tensor data is a
file hole: the header and tensor infos are real, the data region is made by truncating the file
to its full length (a sparse file: a 27B model costs a few kB of disk).

    python3 tools/gguf_sparse.py OUT.gguf SPEC.json

SPEC: {"arch": "gemma3", "kv": {"gemma3.block_count": ["u32", 62], ...},
       "tensors": [["token_embd.weight", [5376, 262208], "Q6_K"], ...]}
Shapes are ggml's order (ne0 first, the row length), as llama.cpp prints them.
Used by tests/llama_cpp.rs; needs `pip install gguf numpy`.
"""
import json
import os
import sys

import numpy as np
import gguf

VT = {
    "u32": gguf.GGUFValueType.UINT32,
    "f32": gguf.GGUFValueType.FLOAT32,
    "str": gguf.GGUFValueType.STRING,
    "bool": gguf.GGUFValueType.BOOL,
}


def main(out, spec_path):
    spec = json.load(open(spec_path))
    w = gguf.GGUFWriter(out, spec["arch"])
    for key, (vt, val) in spec["kv"].items():
        w.add_key_value(key, val, VT[vt])
    total = 0
    for name, shape, ty in spec["tensors"]:
        qt = gguf.GGMLQuantizationType[ty]
        block, size = gguf.GGML_QUANT_SIZES[qt]
        elements = 1
        for d in shape:
            elements *= d
        assert elements % block == 0, (name, shape, ty)
        nbytes = elements // block * size
        # gguf-py takes the numpy (row-major) shape of the bytes: ggml's reversed, each row in
        # bytes.
        byte_shape = list(reversed(shape))
        byte_shape[-1] = shape[0] // block * size
        w.add_tensor_info(name, byte_shape, np.dtype(np.uint8), nbytes, raw_dtype=qt)
        total += nbytes + (-nbytes % w.data_alignment)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    size = os.path.getsize(out)
    start = size + (-size % w.data_alignment)
    os.truncate(out, start + total)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
