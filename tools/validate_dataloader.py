#!/usr/bin/env python3
"""Validate ramvram's workload simulator against a real PyTorch DataLoader (docs/validation.md).

Not a CI test: a benchmark run by hand on the machine whose profile it checks.

Setup (a virtual environment outside the repository; CPU is enough, the default PyPI wheels
are fine):

    python3 -m venv /tmp/dlvenv
    /tmp/dlvenv/bin/pip install torch torchvision pillow psutil

Run (the ramvram binary is optional; without it only the measured side is produced):

    /tmp/dlvenv/bin/python tools/validate_dataloader.py \
        --ramvram target/debug/ramvram --out /tmp/dlval

The runs in docs/validation.md, on a machine shared with other jobs (as root, so --nice can
raise this run's priority; --data keeps the generated files for the next run):

    P=/tmp/dlvenv/bin/python; V=tools/validate_dataloader.py
    COMMON="--nice -15 --quiet 2.5 --retries 0 --data /tmp/dlval-data \
            --ramvram target/debug/ramvram --profile /tmp/me.json"
    $P $V --batches 40 $COMMON --out /tmp/dlval-fast        # data-bound, 3 times
    $P $V --batches 30 --consumer-delay 0.6 --decode-seconds 1 $COMMON --out /tmp/dlval-gpu
    $P $V --batches 40 --workers 0 --main-threads 1 $COMMON --out /tmp/dlval-w0t1

--consumer-delay makes the main process sleep after each batch, a stand-in for a GPU-bound
training step: the prefetch queue then fills (the regime the model's prefetched-batches term
describes). Without it the loop only consumes batches and the loader is decode-bound (the
regime the model's decode stage describes). --main-threads sets torch.set_num_threads in the
main process (the default is one thread per core; workers always run one).

What it does:

1. Generates a JPEG dataset in a temporary folder (ImageFolder layout, 4 classes): --images
   images per resolution (default 400) at each --res (default 640x480 and 1920x1080), quality
   90. Each image is a smooth colour gradient plus mid-frequency texture plus fine Gaussian
   noise, so the JPEG size per pixel is that of a photograph (about 0.37 byte/pixel at q90),
   not that of pure noise (several bytes/pixel) or of a flat image (almost nothing). The files
   are read once so the page cache holds them (ramvram then predicts no storage stage).
2. Measures PIL's JPEG decode rate per core (megapixels/s) at each resolution from bytes in
   RAM, single process and two processes at once, and the same with the light augmentation
   applied (RandomResizedCrop(224), RandomHorizontalFlip, ToTensor), which gives the real
   augmentation cost factor.
3. For each resolution and each (num_workers, prefetch_factor) in {0} + {1, 2} x {2, 4} runs a
   child process with a torchvision ImageFolder (PIL decode + the light augmentation),
   DataLoader(batch_size=32, pin_memory=False, sampler with replacement), --warmup batches,
   then --batches timed batches; samples/s = timed samples / wall time. A monitor (this
   process, outside the measured tree) samples the child's process tree (main + workers):
   RSS every --interval s (cheap, /proc/PID/statm) and USS/PSS from /proc/PID/smaps_rollup
   every --full-every samples (reading smaps_rollup of a 500 MB process costs ~8 ms of CPU,
   so it is sampled less often to keep the monitor from stealing the 2 cores it measures).
   RSS double-counts pages the main process shares with its forked workers (libraries,
   copy-on-write heap, shared-memory batches); PSS divides each shared page among its
   sharers, so the PSS sum of the tree is the RAM the tree really occupies. The machine's
   Shmem (/proc/meminfo) is sampled too: a batch a worker has sent and the main process not
   yet received lives in /dev/shm but in no process's PSS, so the measured total is the tree's
   PSS + (Shmem growth − the tree's Pss_Shmem). The comparison uses that total. Each run also
   records the CPU the tree, the monitor and other processes used in the timed window.
   The child reports its own memory just before the DataLoader is created (the "baseline":
   Python + torch + torchvision + the dataset index).
4. With --ramvram, asks `ramvram advise --json` for the same scenario (dataset size and
   sample count of the generated files, --image-size, --crop 224, workers, prefetch,
   --batch-size 32, --pin-memory false, --augmentation light, --dtype f32,
   --gpu-demand 100000 so decode is the bottleneck, --storage ssd), once with the default
   decode rate and once with --decode-rate set to the measured single-process PIL rate.
   Predicted tree memory = measured baseline + the DataLoader items of memory_budget
   (workers, worker-index-copies, decode-buffers, prefetched-batches, pinned-staging): the
   model's os (2 GiB) and main-process (3 GiB, CUDA-initialised PyTorch) items describe
   things a CPU-only benchmark doesn't have, so the measured baseline replaces them.
   Predicted throughput = the decode stage's samples/s.

Outputs in --out: results.json (everything), results.csv and table.md (the comparison).

Standard library + torch, torchvision, Pillow and psutil only.
"""

import argparse
import csv
import io
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

DATALOADER_ITEMS = (
    "workers",
    "worker-index-copies",
    "decode-buffers",
    "prefetched-batches",
    "pinned-staging",
)
CLASSES = 4
CROP = 224
BATCH = 32


# ---------------------------------------------------------------------------------------------
# Dataset


def make_image(w, h, rng):
    """A photo-like RGB image: gradient + mid-frequency texture + fine noise."""
    from PIL import Image

    chans = []
    for _ in range(3):
        grad = Image.linear_gradient("L").rotate(rng.uniform(0, 360), resample=Image.BILINEAR)
        grad = grad.crop((40, 40, 216, 216)).resize((w, h), Image.BILINEAR)
        # Texture: noise at 1/6 resolution, upscaled (edges and blobs at a scale JPEG keeps).
        tex = Image.effect_noise((max(1, w // 6), max(1, h // 6)), 60).resize(
            (w, h), Image.BICUBIC
        )
        fine = Image.effect_noise((w, h), 30)
        c = Image.blend(grad, tex, 0.45)
        c = Image.blend(c, fine, 0.3)
        chans.append(c)
    return Image.merge("RGB", chans)


def generate(root, resolutions, n, quality, seed):
    """Writes n JPEGs per resolution under root/WxH/class_k/. Returns {res: (bytes, files)}."""
    rng = random.Random(seed)
    out = {}
    for w, h in resolutions:
        key = f"{w}x{h}"
        total = 0
        for i in range(n):
            d = os.path.join(root, key, f"class_{i % CLASSES}")
            os.makedirs(d, exist_ok=True)
            p = os.path.join(d, f"{i:05d}.jpg")
            if not os.path.exists(p):  # --data: an earlier run's files are kept
                make_image(w, h, rng).save(p, "JPEG", quality=quality)
            total += os.path.getsize(p)
        out[key] = (total, n)
        print(f"  {key}: {n} files, {total} bytes ({total / n / 1024:.0f} KiB/file, "
              f"{total / n / (w * h):.3f} B/pixel)", flush=True)
    return out


def file_bytes(root):
    data = []
    for dp, _, fs in os.walk(root):
        for f in sorted(fs):
            with open(os.path.join(dp, f), "rb") as fh:
                data.append(fh.read())
    return data


# ---------------------------------------------------------------------------------------------
# Decode-rate measurement (per core)


def _decode_loop(args):
    """Decodes (and optionally augments) for `seconds`; returns (images, pixels, cpu_s, wall_s)."""
    root, seconds, augment = args
    import torch
    from PIL import Image

    torch.set_num_threads(1)
    tf = None
    if augment:
        from torchvision import transforms

        tf = transforms.Compose([
            transforms.RandomResizedCrop(CROP),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
        ])
    data = file_bytes(root)
    n = px = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for b in data:
            img = Image.open(io.BytesIO(b)).convert("RGB")
            px += img.width * img.height
            if tf is not None:
                tf(img)
            n += 1
            if time.perf_counter() - t0 >= seconds:
                break
    return n, px, time.process_time() - c0, time.perf_counter() - t0


def measure_decode(root, seconds):
    """Runs in a child process, so the monitor never maps torch's libraries (PSS would then
    split those pages between the monitor and the measured tree)."""
    res = {}
    for augment in (False, True):
        tag = "decode_aug" if augment else "decode"
        b0, t0 = _cpu_busy_s(), time.perf_counter()
        n, px, cpu, wall = _decode_loop((root, seconds, augment))
        others = (_cpu_busy_s() - b0 - cpu) / (time.perf_counter() - t0)
        one = {"images_per_s": n / wall, "mpix_per_s": px / wall / 1e6,
               "cpu_share": cpu / wall, "others_cpu_cores": others}
        ctx = mp.get_context("fork")
        with ctx.Pool(2) as pool:
            pool.map(time.sleep, [0.2, 0.2])  # workers started before timing
            b0, t0 = _cpu_busy_s(), time.perf_counter()
            parts = pool.map(_decode_loop, [(root, seconds, augment)] * 2)
            others = (_cpu_busy_s() - b0 - sum(p[2] for p in parts)) / (
                time.perf_counter() - t0)
        two_n = sum(p[0] / p[3] for p in parts)
        two_px = sum(p[1] / p[3] for p in parts)
        res[tag] = {"one_process": one,
                    "two_processes": {"images_per_s": two_n, "mpix_per_s": two_px / 1e6,
                                      "others_cpu_cores": others}}
    res["augmentation_cpu_factor"] = (
        res["decode"]["one_process"]["images_per_s"]
        / res["decode_aug"]["one_process"]["images_per_s"]
    )
    return res


# ---------------------------------------------------------------------------------------------
# The measured child: one DataLoader configuration


def run_json(args):
    """Runs this script with internal args in a child process; returns its last JSON line."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__)] + args,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def self_memory():
    import psutil

    m = psutil.Process().memory_full_info()
    return {"rss": m.rss, "uss": m.uss, "pss": m.pss}


def child(a):
    t_start = time.perf_counter()
    import torch
    from torch.utils.data import DataLoader, RandomSampler
    from torchvision import datasets, transforms

    tf = transforms.Compose([
        transforms.RandomResizedCrop(CROP),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
    ])
    if a.main_threads:
        torch.set_num_threads(a.main_threads)
    ds = datasets.ImageFolder(a.child_root, transform=tf)
    total = (a.warmup + a.batches) * BATCH
    sampler = RandomSampler(ds, replacement=True, num_samples=total,
                            generator=torch.Generator().manual_seed(0))
    base = self_memory()
    print("EVENT baseline", json.dumps(base), flush=True)
    dl = DataLoader(
        ds,
        batch_size=BATCH,
        sampler=sampler,
        num_workers=a.child_workers,
        prefetch_factor=a.child_prefetch if a.child_workers > 0 else None,
        pin_memory=False,
        persistent_workers=False,
    )
    it = iter(dl)
    for _ in range(a.warmup):
        next(it)
    print("EVENT measure_start", flush=True)
    c0 = time.process_time()
    t0 = time.perf_counter()
    n = 0
    for _ in range(a.batches):
        x, _y = next(it)
        n += x.shape[0]
        if a.consumer_delay:
            time.sleep(a.consumer_delay)  # a stand-in for the GPU's training step
        assert x.dtype == torch.float32 and tuple(x.shape[1:]) == (3, CROP, CROP)
    t1 = time.perf_counter()
    c1 = time.process_time()
    print("EVENT measure_end", flush=True)
    result = {
        "samples": n,
        "seconds": t1 - t0,
        "samples_per_s": n / (t1 - t0),
        "main_cpu_share": (c1 - c0) / (t1 - t0),
        "baseline": base,
        "startup_s": t0 - t_start,
        "torch_threads": torch.get_num_threads(),
    }
    del it
    print("RESULT", json.dumps(result), flush=True)


# ---------------------------------------------------------------------------------------------
# The monitor


def _statm_rss(pid, page):
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * page


def _rollup(pid):
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("Rss", "Pss", "Pss_Shmem", "Private_Clean", "Private_Dirty"):
                out[k] = int(v.split()[0]) * 1024
    return {"rss": out["Rss"], "pss": out["Pss"], "pss_shmem": out.get("Pss_Shmem", 0),
            "uss": out["Private_Clean"] + out["Private_Dirty"]}


def _cpu_busy_s():
    """Busy CPU seconds of the whole machine since boot (/proc/stat), all cores together."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _proc_cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / os.sysconf("SC_CLK_TCK")


def wait_quiet(max_wait, limit):
    """Waits until other processes use under `limit` cores (measured over 2 s); returns the
    last measured load, in cores."""
    t_end = time.time() + max_wait
    while True:
        b0 = _cpu_busy_s()
        time.sleep(2.0)
        load = (_cpu_busy_s() - b0) / 2.0
        if load < limit or time.time() > t_end:
            return load
        print(f"  machine busy ({load:.2f} cores used by others), waiting", flush=True)
        time.sleep(8.0)


def _shmem():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Shmem:"):
                return int(line.split()[1]) * 1024
    return 0


def run_config(a, root, workers, prefetch):
    import psutil

    cmd = [sys.executable, os.path.abspath(__file__), "--child-root", root,
           "--child-workers", str(workers), "--child-prefetch", str(prefetch),
           "--warmup", str(a.warmup), "--batches", str(a.batches),
           "--main-threads", str(a.main_threads),
           "--consumer-delay", str(a.consumer_delay)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    events = {}
    result = {}

    def reader():
        for line in proc.stdout:
            line = line.rstrip("\n")
            if line.startswith("EVENT "):
                parts = line.split(" ", 2)
                events[parts[1]] = time.perf_counter()
                if parts[1] == "baseline":
                    result["baseline"] = json.loads(parts[2])
            elif line.startswith("RESULT "):
                result.update(json.loads(line[7:]))

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    page = os.sysconf("SC_PAGE_SIZE")
    shm0 = _shmem()
    root_p = psutil.Process(proc.pid)
    samples = []  # (t, rss_tree, full or None, shmem, n_procs, busy_s, tree_cpu_s)
    tree_cpu = {}
    k = 0
    mon_cpu0 = time.process_time()
    while proc.poll() is None:
        t = time.perf_counter()
        try:
            procs = [root_p] + root_p.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        rss = 0
        full = None
        do_full = k % a.full_every == 0
        if do_full:
            full = {"rss": 0, "pss": 0, "uss": 0, "pss_shmem": 0, "main_pss": 0,
                    "workers_pss": 0, "workers_uss": 0}
        alive = 0
        for p in procs:
            try:
                tree_cpu[p.pid] = _proc_cpu_s(p.pid)
                rss += _statm_rss(p.pid, page)
                if do_full:
                    r = _rollup(p.pid)
                    for key in ("rss", "pss", "uss", "pss_shmem"):
                        full[key] += r[key]
                    if p.pid == proc.pid:
                        full["main_pss"] = r["pss"]
                    else:
                        full["workers_pss"] += r["pss"]
                        full["workers_uss"] += r["uss"]
                alive += 1
            except (OSError, psutil.NoSuchProcess, KeyError):
                pass
        shm = _shmem() - shm0
        if full is not None:
            # Batches in flight through /dev/shm that no process of the tree maps (sent by a
            # worker, not yet received) are in no process's PSS; the machine's Shmem has them.
            full["unmapped_shm"] = max(0, shm - full["pss_shmem"])
            full["total"] = full["pss"] + full["unmapped_shm"]
        samples.append((t, rss, full, shm, alive, _cpu_busy_s(), sum(tree_cpu.values())))
        k += 1
        time.sleep(max(0.0, a.interval - (time.perf_counter() - t)))
    mon_cpu = time.process_time() - mon_cpu0
    proc.wait()
    th.join(timeout=5)
    if proc.returncode != 0 or "samples_per_s" not in result:
        raise RuntimeError(f"child failed (rc {proc.returncode}) for workers={workers}")
    t_base = events.get("baseline", 0.0)
    t_end = events.get("measure_end", float("inf"))
    t_ms = events.get("measure_start", t_base)
    win = [s for s in samples if t_base <= s[0] <= t_end]
    fulls = [s[2] for s in win if s[2] is not None]
    steady = [s[2] for s in win if s[2] is not None and s[0] >= t_ms]
    result["memory"] = {
        "peak_tree_rss": max((s[1] for s in win), default=0),
        "peak_tree_pss": max((f["pss"] for f in fulls), default=0),
        "peak_tree_pss_plus_unmapped_shm": max((f["total"] for f in fulls), default=0),
        "peak_unmapped_shm": max((f["unmapped_shm"] for f in fulls), default=0),
        "peak_tree_uss": max((f["uss"] for f in fulls), default=0),
        "peak_tree_rss_full": max((f["rss"] for f in fulls), default=0),
        "peak_main_pss": max((f["main_pss"] for f in fulls), default=0),
        "peak_workers_pss": max((f["workers_pss"] for f in fulls), default=0),
        "peak_workers_uss": max((f["workers_uss"] for f in fulls), default=0),
        "mean_steady_tree_pss": (sum(f["pss"] for f in steady) / len(steady)) if steady else 0,
        "peak_shmem_delta": max((s[3] for s in win), default=0),
        "max_processes": max((s[4] for s in win), default=0),
        "rss_samples": len(win),
        "pss_samples": len(fulls),
    }
    timed = [s for s in samples if t_ms <= s[0] <= t_end]
    if len(timed) > 1:
        dt = timed[-1][0] - timed[0][0]
        busy = (timed[-1][5] - timed[0][5]) / dt
        tree = (timed[-1][6] - timed[0][6]) / dt
        result["cpu_cores_used"] = {"machine": busy, "tree": tree,
                                    "others_incl_monitor": busy - tree}
    result["monitor_cpu_share"] = mon_cpu / max(1e-9, samples[-1][0] - samples[0][0]) \
        if len(samples) > 1 else 0.0
    return result


# ---------------------------------------------------------------------------------------------
# ramvram's prediction


def predict(a, profile, key, ds_bytes, n, workers, prefetch, decode_rate=None):
    cmd = [a.ramvram, "advise", "--profile", profile, "--json",
           "--dataset-size", str(ds_bytes), "--samples", str(n), "--image-size", key,
           "--crop", str(CROP), "--num-workers", str(workers),
           "--prefetch-factor", str(prefetch), "--batch-size", str(BATCH),
           "--pin-memory", "false", "--persistent-workers", "false",
           "--augmentation", "light", "--dtype", "f32", "--gpu-demand", "100000",
           "--storage", "ssd"]
    if decode_rate is not None:
        cmd += ["--decode-rate", f"{decode_rate:.3f}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    items = {i["id"]: i["bytes"] for i in d["memory_budget"]["items"]}
    stages = {s["id"]: s["samples_per_s"] for s in d["pipeline"]["stages"]}
    return {
        "command": " ".join(cmd),
        "items": items,
        "working_set_bytes": d["memory_budget"]["working_set_bytes"],
        "dataloader_bytes": sum(items.get(i, 0) for i in DATALOADER_ITEMS),
        "decode_samples_per_s": stages.get("decode"),
        "bottleneck": d["pipeline"]["bottleneck"],
        "workload": d.get("workload"),
    }


# ---------------------------------------------------------------------------------------------


def versions():
    import PIL
    import psutil
    import torch
    import torchvision
    from PIL import features

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "pillow": PIL.__version__,
        "libjpeg_turbo": features.version_feature("libjpeg_turbo"),
        "psutil": psutil.__version__,
        "kernel": platform.release(),
        "cpu_count": os.cpu_count(),
        "mem_total": psutil.virtual_memory().total,
    }


def pct(pred, meas):
    return None if not meas else 100.0 * (pred - meas) / meas


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--res", nargs="+", default=["640x480", "1920x1080"])
    ap.add_argument("--images", type=int, default=400, help="images per resolution")
    ap.add_argument("--quality", type=int, default=90)
    ap.add_argument("--workers", nargs="+", type=int, default=[0, 1, 2])
    ap.add_argument("--prefetch", nargs="+", type=int, default=[2, 4])
    ap.add_argument("--warmup", type=int, default=3, help="batches before timing")
    ap.add_argument("--batches", type=int, default=25, help="timed batches")
    ap.add_argument("--interval", type=float, default=0.05, help="RSS sampling period, s")
    ap.add_argument("--full-every", type=int, default=6,
                    help="read PSS/USS every N RSS samples")
    ap.add_argument("--decode-seconds", type=float, default=4.0)
    ap.add_argument("--ramvram", help="ramvram binary (for the predictions)")
    ap.add_argument("--profile", help="ramvram profile (default: `ramvram detect` now)")
    ap.add_argument("--data", help="dataset folder, kept; files already there are reused "
                                   "(default: a temporary folder, deleted)")
    ap.add_argument("--out", default="dataloader-validation")
    ap.add_argument("--seed", type=int, default=1)
    # Internal: the measured child.
    ap.add_argument("--child-root", help=argparse.SUPPRESS)
    ap.add_argument("--child-workers", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--child-prefetch", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--child-decode", help=argparse.SUPPRESS)
    ap.add_argument("--child-versions", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--quiet", type=float, default=0.15,
                    help="run only when other processes use under this many cores")
    ap.add_argument("--max-wait", type=float, default=600, help="seconds to wait for quiet")
    ap.add_argument("--retries", type=int, default=2,
                    help="reruns of a configuration disturbed by other processes")
    ap.add_argument("--nice", type=int, default=0,
                    help="nice increment for this run and its children, also applied to the "
                         "session's autogroup; a negative value (root) keeps other jobs on a "
                         "shared machine from stealing CPU")
    ap.add_argument("--consumer-delay", type=float, default=0.0,
                    help="seconds the main process sleeps per batch (a GPU-bound training "
                         "step): the prefetch queue then fills to num_workers x prefetch_factor")
    ap.add_argument("--main-threads", type=int, default=0,
                    help="torch.set_num_threads in the loader's main process (0: default)")
    a = ap.parse_args()
    if a.child_root:
        child(a)
        return
    if a.child_decode:
        print(json.dumps(measure_decode(a.child_decode, a.decode_seconds)))
        return
    if a.child_versions:
        print(json.dumps(versions()))
        return

    if a.nice:
        os.nice(a.nice)
        # With the kernel's autogroup scheduling, nice only ranks processes within their
        # session's group; the group itself competes with other sessions at its own nice.
        try:
            with open("/proc/self/autogroup", "w") as f:
                f.write(str(a.nice))
        except OSError:
            pass
    os.makedirs(a.out, exist_ok=True)
    resolutions = [tuple(int(x) for x in r.lower().split("x")) for r in a.res]
    tmp = None
    root = a.data
    if root is None:
        tmp = tempfile.mkdtemp(prefix="dlval-")
        root = tmp
    report = {"versions": run_json(["--child-versions"]), "args": vars(a), "datasets": {}, "decode": {},
              "runs": []}
    try:
        print("generating the dataset in", root, flush=True)
        ds_info = generate(root, resolutions, a.images, a.quality, a.seed)
        for key, (b, n) in ds_info.items():
            file_bytes(os.path.join(root, key))  # into the page cache
            report["datasets"][key] = {"bytes": b, "files": n}
        for key in ds_info:
            print("decode rate", key, flush=True)
            wait_quiet(a.max_wait, a.quiet)
            report["decode"][key] = run_json(["--child-decode", os.path.join(root, key),
                                              "--decode-seconds", str(a.decode_seconds)])
            d = report["decode"][key]
            print(f"  PIL decode {d['decode']['one_process']['mpix_per_s']:.1f} MP/s/core, "
                  f"2 procs {d['decode']['two_processes']['mpix_per_s']:.1f} MP/s; "
                  f"with light aug {d['decode_aug']['one_process']['images_per_s']:.1f} img/s; "
                  f"aug factor {d['augmentation_cpu_factor']:.2f}", flush=True)
        profile = a.profile
        if a.ramvram and not profile:
            profile = os.path.join(a.out, "profile.json")
            subprocess.run([a.ramvram, "detect", "--out", profile], check=True)
        configs = [(0, 2)] + [(w, p) for w in a.workers if w > 0 for p in a.prefetch]
        if 0 not in a.workers:
            configs = configs[1:]
        for key, (ds_bytes, n) in ds_info.items():
            for workers, prefetch in configs:
                print(f"run {key} workers={workers} prefetch={prefetch if workers else '-'}",
                      flush=True)
                for attempt in range(a.retries + 1):
                    load = wait_quiet(a.max_wait, a.quiet)
                    r = run_config(a, os.path.join(root, key), workers, prefetch)
                    r["load_before"] = load
                    others = r.get("cpu_cores_used", {}).get("others_incl_monitor", 0.0)
                    if others < a.quiet + 0.1:
                        break
                    print(f"  others used {others:.2f} cores during the run; again",
                          flush=True)
                r["others_cpu_cores"] = others
                row = {"res": key, "workers": workers,
                       "prefetch": prefetch if workers else None, "measured": r}
                if a.ramvram:
                    rate = report["decode"][key]["decode"]["one_process"]["mpix_per_s"]
                    row["predicted"] = predict(a, profile, key, ds_bytes, n, workers, prefetch)
                    row["predicted_measured_rate"] = predict(
                        a, profile, key, ds_bytes, n, workers, prefetch, rate)
                m = r["memory"]
                print(f"  {r['samples_per_s']:.1f} samples/s, peak tree PSS "
                      f"{m['peak_tree_pss'] / 2**20:.0f} MiB, RSS {m['peak_tree_rss'] / 2**20:.0f}"
                      f" MiB, baseline PSS {r['baseline']['pss'] / 2**20:.0f} MiB", flush=True)
                report["runs"].append(row)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    rows = []
    for row in report["runs"]:
        r = row["measured"]
        m = r["memory"]
        out = {
            "res": row["res"], "workers": row["workers"], "prefetch": row["prefetch"] or "",
            "measured_samples_per_s": round(r["samples_per_s"], 1),
            "baseline_pss_mib": round(r["baseline"]["pss"] / 2**20, 1),
            "peak_tree_pss_mib": round(m["peak_tree_pss"] / 2**20, 1),
            "peak_total_mib": round(m["peak_tree_pss_plus_unmapped_shm"] / 2**20, 1),
            "peak_tree_rss_mib": round(m["peak_tree_rss"] / 2**20, 1),
            "peak_tree_uss_mib": round(m["peak_tree_uss"] / 2**20, 1),
            "peak_workers_pss_mib": round(m["peak_workers_pss"] / 2**20, 1),
            "loader_mib": round(
                (m["peak_tree_pss_plus_unmapped_shm"] - r["baseline"]["pss"]) / 2**20, 1),
            "others_cpu_cores": round(r["others_cpu_cores"], 2),
            "main_cpu_share": round(r["main_cpu_share"], 2),
        }
        if "predicted" in row:
            p = row["predicted"]
            q = row["predicted_measured_rate"]
            pred_mem = r["baseline"]["pss"] + p["dataloader_bytes"]
            out.update({
                "pred_samples_per_s": round(p["decode_samples_per_s"], 1),
                "err_tput_pct": round(pct(p["decode_samples_per_s"], r["samples_per_s"]), 1),
                "pred_samples_per_s_measured_rate": round(q["decode_samples_per_s"], 1),
                "err_tput_measured_rate_pct": round(
                    pct(q["decode_samples_per_s"], r["samples_per_s"]), 1),
                "pred_loader_mib": round(p["dataloader_bytes"] / 2**20, 1),
                "pred_tree_mib": round(pred_mem / 2**20, 1),
                "err_mem_pct": round(pct(pred_mem, m["peak_tree_pss_plus_unmapped_shm"]), 1),
                "err_loader_pct": round(pct(p["dataloader_bytes"], m[
                    "peak_tree_pss_plus_unmapped_shm"] - r["baseline"]["pss"]), 1),
                "pred_working_set_mib": round(p["working_set_bytes"] / 2**20, 1),
            })
        rows.append(out)
    report["table"] = rows
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        cols = list(rows[0].keys())
        f.write("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n")
        for r in rows:
            f.write("| " + " | ".join(str(r[c]) for c in cols) + " |\n")
    print(open(os.path.join(a.out, "table.md")).read())


if __name__ == "__main__":
    main()
