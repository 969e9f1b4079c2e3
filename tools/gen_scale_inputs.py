#!/usr/bin/env python3
"""Inputs for the scale benchmarks in docs/benchmarks.md (issue 14).

    tools/gen_scale_inputs.py slurm NODES OUT.json

writes a `scontrol show node --json` document with NODES nodes shaped like Slurm 23.x output
(the fields ramvram reads plus a few it ignores, about 340 bytes per node), with a mix of GPU
nodes and one duplicated host name per thousand nodes. Deterministic: the same file every run.
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


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] != "slurm":
        sys.exit(__doc__)
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        json.dump(slurm(int(sys.argv[2])), f, separators=(",", ":"))


if __name__ == "__main__":
    main()
