#!/usr/bin/env python3
"""Inputs for the scale benchmarks in docs/benchmarks.md (issues 14 and 25).

    tools/gen_scale_inputs.py slurm NODES OUT.json
    tools/gen_scale_inputs.py trace MIB OUT.jsonl
    tools/gen_scale_inputs.py gpus N OUT.jsonl

`slurm` writes a `scontrol show node --json` document with NODES nodes shaped like Slurm 23.x
output (the fields ramvram reads plus a few it ignores, about 340 bytes per node), with a mix of
GPU nodes and one duplicated host name per thousand nodes.

`trace` writes a trace (docs/trace.md) of an 8-GPU machine sampled once a second, every field
filled as `ramvram watch --record` writes it (about 1.5 KB a line), until the file holds MIB
MiB (at most: the last line that fits). The GPUs saw-tooth, so the recognisers have work.

`gpus` writes a trace of two samples, each with N GPUs (issue 25: "50,000 GPUs in one
sample").

Deterministic: the same file every run.
"""

import json
import random
import sys


def slurm(nodes: int) -> dict:
    rng = random.Random(14)
    gres = [
        "gpu:a100:8(S:0-1)",
        "gpu:h100:8(S:0-1)",
        "gpu:v100:4(S:0)",
        "gpu:rtx_3090:2",
        "gpu:a100:4(S:0-1),shard:16",
        "(null)",
    ]
    memory_mib = [257_000, 515_000, 1_031_000, 2_063_000]
    out = []
    for i in range(nodes):
        name = f"gpu{i:06d}" if i % 1000 != 999 else f"gpu{i - 1:06d}"
        out.append(
            {
                "architecture": "x86_64",
                "boards": 1,
                "cores": 32,
                "cpus": 128,
                "features": ["ib", "nvme"],
                "gres": rng.choice(gres),
                "hostname": name,
                "name": name,
                "operating_system": "Linux 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023",
                "partitions": ["gpu", "debug"],
                "real_memory": rng.choice(memory_mib),
                "sockets": 2,
                "state": ["IDLE"],
                "threads": 2,
                "weight": 1,
            }
        )
    return {"meta": {"plugin": {"data_parser": "data_parser/v0.0.40"}}, "nodes": out}


HEADER = {"schema": "ramvram-trace", "version": 1, "interval_s": 1.0}


def host(t: int) -> dict:
    return {
        "mem_available_bytes": 400 << 30,
        "page_cache_bytes": (100 << 30) + t,
        "swap_used_bytes": 0,
        "swap_in_pages_per_s": 0.0,
        "swap_out_pages_per_s": 0.0,
        "major_faults_per_s": 2.0,
        "psi_memory_some_avg10": 0.0,
        "psi_memory_full_avg10": 0.0,
        "psi_io_some_avg10": 0.5,
        "cpu_busy_percent": 95.0,
        "iowait_percent": 1.0,
        "kswapd_cpu_percent": 0.0,
        "oom_kills_total": 0,
        "shm_used_bytes": 1 << 30,
        "shm_total_bytes": 256 << 30,
        "disk_read_bytes_per_s": 5e8,
    }


def gpu(i: int, t: int) -> dict:
    busy = (t // 4) % 2 == 0
    return {
        "index": i,
        "util_percent": 98.0 if busy else 3.0,
        "mem_used_bytes": 60 << 30,
        "power_w": 650.0 if busy else 120.0,
        "pcie_rx_bytes_per_s": 2e9,
        "pcie_tx_bytes_per_s": 2e8,
    }


def line(value: dict) -> str:
    return json.dumps(value, separators=(",", ":")) + "\n"


def trace(mib: int, out: str) -> None:
    limit = mib << 20
    with open(out, "w", encoding="utf-8") as f:
        written = f.write(line(HEADER))
        t = 0
        while True:
            sample = {
                "t": float(t),
                "host": host(t),
                "gpus": [gpu(i, t) for i in range(8)],
                "process": {"pid": 4242, "rss_bytes": 12 << 30, "cpu_percent": 800.0, "workers": 8},
            }
            text = line(sample)
            if written + len(text) > limit:
                return
            written += f.write(text)
            t += 1


def gpus(n: int, out: str) -> None:
    with open(out, "w", encoding="utf-8") as f:
        f.write(line(HEADER))
        for t in range(2):
            f.write(line({"t": float(t), "host": host(t), "gpus": [gpu(i, t) for i in range(n)]}))


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in ("slurm", "trace", "gpus"):
        sys.exit(__doc__)
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "slurm":
        with open(out, "w", encoding="utf-8") as f:
            json.dump(slurm(n), f, separators=(",", ":"))
    elif kind == "trace":
        trace(n, out)
    else:
        gpus(n, out)


if __name__ == "__main__":
    main()
