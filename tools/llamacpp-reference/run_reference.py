#!/usr/bin/env python3
"""Record llama.cpp's own memory figures for sparse GGUF files (see README.md).

Usage: run_reference.py BUILD_DIR WORK_DIR OUT_DIR [MODEL ...]

BUILD_DIR holds the CPU (+RPC) build of the llama.cpp vendored in
llama-cpp-python (patched by patch_llamacpp.py); WORK_DIR receives the sparse
GGUF files; OUT_DIR receives one <model>.json fixture per model.

For each model:
1. make_gguf.py writes the released-dtype file (BF16; MXFP4 experts for gpt-oss);
2. `llama-quantize --dry-run F Q4_K_M` prints the type llama.cpp's quantiser
   (`llama_tensor_get_type`, src/llama-quant.cpp) gives each tensor; the
   Q4_K_M file is written with exactly those types (gpt-oss is kept as released);
3. `llama-fit-params --fit-print on` (RAMVRAM_FIT_BYTES=1: exact bytes) prints
   the model, context (KV) and compute buffers per device at each setting, on
   the CPU alone and with an emulated GPU (rpc-server on loopback advertising
   GGML_RPC_FAKE_MEM_MIB);
4. `llama-fit-params` with no -ngl/-c fits against emulated GPUs of 8–48 GiB
   and the printed arguments are recorded.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_gguf  # noqa: E402
import gguf  # noqa: E402

VERSION = "llama-cpp-python 0.3.36 (vendored llama.cpp, ggml 0.25.3, commit 0c1e570)"
MIB = 1024 * 1024
PORT = 50152


def run(cmd, env=None, timeout=900):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def dry_run_types(build, src):
    rc, out, err = run([f"{build}/bin/llama-quantize", "--dry-run", src, "Q4_K_M"])
    types = {}
    for line in (out + err).splitlines():
        m = re.search(r"\]\s+(\S+)\s+- \[.*\], type =\s+(\S+), size =.*?(?:\((\S+)\))?$", line)
        if m:
            types[m.group(1)] = m.group(3) or m.group(2)
    if rc != 0 or not types:
        raise RuntimeError(f"llama-quantize --dry-run failed: {err[-2000:]}")
    return types


def kind(name):
    if name == "token_embd.weight":
        return "token_embd"
    if name.startswith("output.") :
        return "output"
    if name == "output_norm.weight" or "norm" in name:
        return "norm"
    if "_exps" in name:
        return "experts"
    if "ffn_gate_inp" in name:
        return "router"
    if "ffn_" in name:
        return "ffn_dense"
    return "attention"


def file_summary(path):
    r = gguf.GGUFReader(path)
    by_kind, per_layer, types, counts = {}, {}, {}, {}
    for t in r.tensors:
        n = int(t.n_bytes)
        k = kind(t.name)
        by_kind[k] = by_kind.get(k, 0) + n
        m = re.match(r"blk\.(\d+)\.", t.name)
        if m:
            per_layer[int(m.group(1))] = per_layer.get(int(m.group(1)), 0) + n
            key = "blk.*." + t.name[len(m.group(0)):]
            types.setdefault(key, []).append(t.tensor_type.name)
        else:
            types[t.name] = t.tensor_type.name
        counts[t.tensor_type.name] = counts.get(t.tensor_type.name, 0) + n
    for k, v in types.items():
        if isinstance(v, list) and len(set(v)) == 1:
            types[k] = v[0]
    return {
        "file_bytes": os.path.getsize(path),
        "tensor_bytes": sum(by_kind.values()),
        "tensor_bytes_by_kind": by_kind,
        "tensor_bytes_by_type": counts,
        "layer_bytes": [per_layer[i] for i in sorted(per_layer)],
        "tensor_types": types,
    }


def parse_print(out):
    rows = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and all(x.isdigit() for x in p[1:]):
            rows[p[0]] = {"model": int(p[1]), "context": int(p[2]), "compute": int(p[3])}
    return rows


class RpcServer:
    def __init__(self, build, mib):
        self.p = subprocess.Popen([f"{build}/bin/ggml-rpc-server", "-p", str(PORT), "-t", "1"],
                                  env=dict(os.environ, GGML_RPC_FAKE_MEM_MIB=str(mib)),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)

    def close(self):
        self.p.terminate()
        self.p.wait()


def settings(m):
    n_ctx_train = m["n_ctx_train"]
    out = []
    for ctx in (4096, 32768):
        for fa in ("on", "off"):
            out.append(dict(ctx=ctx, fa=fa, ctk="f16", ctv="f16", ub=512, np=1))
        out.append(dict(ctx=ctx, fa="on", ctk="q8_0", ctv="q8_0", ub=512, np=1))
    out.append(dict(ctx=4096, fa="on", ctk="q4_0", ctv="q4_0", ub=512, np=1))
    out.append(dict(ctx=4096, fa="on", ctk="f16", ctv="f16", ub=2048, np=1))
    out.append(dict(ctx=16384, fa="on", ctk="f16", ctv="f16", ub=512, np=4))
    out.append(dict(ctx=16384, fa="off", ctk="f16", ctv="f16", ub=512, np=4))
    out.append(dict(ctx=n_ctx_train, fa="on", ctk="f16", ctv="f16", ub=512, np=1))
    return out


def flags(s):
    # --no-repack: the CPU's repacked copies of quantised weights (CPU_REPACK) are left out of
    # --fit-print's host row; without repacking every host tensor stays in the mapped buffer.
    return ["--no-repack", "-c", str(s["ctx"]), "-fa", s["fa"], "-ctk", s["ctk"], "-ctv", s["ctv"],
            "-ub", str(s["ub"]), "-b", str(max(2048, s["ub"])), "-np", str(s["np"])]


def record(build, name, path, m):
    fit = f"{build}/bin/llama-fit-params"
    figs = []
    env = {"RAMVRAM_FIT_BYTES": "1"}
    # 1. CPU only: every buffer on the host
    for s in settings(m):
        cmd = [fit, "-m", path, "--fit-print", "on", "-ngl", "0"] + flags(s)
        rc, out, err = run(cmd, env)
        figs.append({"device_mib": None, "settings": dict(s, ngl=0), "cmd": " ".join(cmd[1:]),
                     "rc": rc, "buffers": parse_print(out)})
    # 2. emulated 24 GiB GPU, full and partial offload, and MoE experts on the host
    srv = RpcServer(build, 24 * 1024)
    try:
        L = m["n_layer"]
        placements = [dict(ngl=999), dict(ngl=L), dict(ngl=L // 2), dict(ngl=1)]
        if "n_expert" in m:
            placements += [dict(ngl=999, ncmoe=L // 2), dict(ngl=999, ncmoe=L)]
        for pl in placements:
            for s in (dict(ctx=4096, fa="on", ctk="f16", ctv="f16", ub=512, np=1),
                      dict(ctx=4096, fa="off", ctk="f16", ctv="f16", ub=512, np=1)):
                cmd = [fit, "-m", path, "--fit-print", "on", "--rpc", f"127.0.0.1:{PORT}",
                       "-ngl", str(pl["ngl"])] + flags(s)
                if "ncmoe" in pl:
                    cmd += ["--n-cpu-moe", str(pl["ncmoe"])]
                rc, out, err = run(cmd, env)
                figs.append({"device_mib": 24 * 1024, "settings": dict(s, **pl),
                             "cmd": " ".join(cmd[1:]), "rc": rc, "buffers": parse_print(out)})
    finally:
        srv.close()
    # 3. llama.cpp's own fit against emulated GPUs
    fits = []
    for gib in (8, 12, 16, 24, 48):
        srv = RpcServer(build, gib * 1024)
        try:
            for extra in ([], ["-c", "8192"]):
                cmd = [fit, "-m", path, "--rpc", f"127.0.0.1:{PORT}"] + extra
                rc, out, err = run(cmd)
                res = out.strip().splitlines()[-1] if out.strip() else ""
                mc = re.search(r"-c (\d+)", res)
                mn = re.search(r"-ngl (-?\d+)", res)
                ot = re.findall(r"blk\\\.(\d+)\\\.", res)
                fits.append({"device_mib": gib * 1024, "cmd": " ".join(cmd[1:]), "rc": rc,
                             "printed": res, "n_ctx": int(mc.group(1)) if mc else None,
                             "n_gpu_layers": int(mn.group(1)) if mn else None,
                             "layers_with_experts_on_host": sorted(set(int(x) for x in ot)),
                             "log": [l for l in err.splitlines() if "llama_params_fit" in l][-12:]})
        finally:
            srv.close()
    return figs, fits


def main():
    build, work, outdir = sys.argv[1:4]
    names = sys.argv[4:] or list(make_gguf.MODELS)
    os.makedirs(work, exist_ok=True)
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        m = make_gguf.MODELS[name]
        src = os.path.join(work, f"{name}-released.gguf")
        make_gguf.write(name, src)
        if m.get("exp_dtype"):
            path, quant, types = src, "as released (MXFP4 experts, BF16 otherwise)", None
        else:
            types = dry_run_types(build, src)
            path, quant = os.path.join(work, f"{name}-Q4_K_M.gguf"), "Q4_K_M"
            make_gguf.write(name, path, types)
        figs, fits = record(build, name, path, m)
        shape = {k: (v.name if hasattr(v, "name") else v) for k, v in m.items()}
        fx = {
            "model": name,
            "reference": VERSION,
            "how": "tools/llamacpp-reference/run.sh; sparse GGUF written by make_gguf.py; "
                   "buffers from llama-fit-params --fit-print (bytes), fits from llama-fit-params "
                   "against ggml-rpc-server on loopback advertising device_mib",
            "quantisation": quant,
            "quant_types_from": "llama-quantize --dry-run (llama_tensor_get_type)" if types else "released checkpoint",
            "shape": shape,
            "file": file_summary(path),
            "figures": figs,
            "fits": fits,
        }
        out = os.path.join(outdir, f"{name}.json")
        with open(out, "w") as fh:
            json.dump(fx, fh, indent=1, sort_keys=False)
            fh.write("\n")
        print(out, flush=True)


if __name__ == "__main__":
    main()
