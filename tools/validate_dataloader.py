#!/usr/bin/env python3
"""Validate ramvram's workload simulator against a real PyTorch DataLoader (docs/validation.md).

Not a CI test: a benchmark run by hand on the machine whose profile it checks. Two phases, so the
slow measurements can run while the model changes and be compared with any later build:

    measure   generate the datasets, time each transform on one thread, run every DataLoader
              configuration of the grid and record throughput and memory (measured.json)
    predict   ask `ramvram advise --json` for each configuration and write the comparison,
              configurations used to set a model constant apart from those that only check it
              (predicted.json, table.md)

Setup (a virtual environment outside the repository; CPU is enough, the default PyPI wheels
are fine):

    python3 -m venv /tmp/dlvenv
    /tmp/dlvenv/bin/pip install torch torchvision pillow psutil

The runs in docs/validation.md (as root on a machine shared with other jobs, so --nice can raise
this run's priority; --data keeps the generated files for the next run):

    P=/tmp/dlvenv/bin/python; V=tools/validate_dataloader.py
    ramvram detect --out /tmp/me.json
    $P $V measure --nice -15 --quiet 2.5 --max-wait 5 --retries 0 --data /tmp/dlval-data \
        --out /tmp/dlval
    $P $V predict --out /tmp/dlval --ramvram target/debug/ramvram --profile /tmp/me.json

`measure --only ID…` reruns some configurations into the same measured.json.

The grid (CONFIGS below): JPEG at 640x480, 1280x720, 1920x1080 and 2560x1440 and PNG at
1024x1024; "light" augmentation (Resize(256), CenterCrop(224), ToTensor) and "heavy"
(RandomResizedCrop(224), RandomHorizontalFlip, ColorJitter, GaussianBlur(23), ToTensor,
Normalize); 0-3 workers; prefetch_factor 2, 4 and 6; pin_memory on and off (torch ignores it
without an accelerator, so pinned memory is never exercised here); a data-bound loop (the main
process only takes batches) and a loader-bound loop (the main process sleeps --delay s per batch,
a stand-in for a GPU training step, so the prefetch queue fills). Two configurations have a
1,000,000-sample index (ImageFolder-style (path, label) tuples cycling over the real files) to
watch the index being copied into the workers: one as is (a short run touches a few thousand
entries), one whose workers first read every entry once (what an epoch does).

What each phase does:

1. Datasets (ImageFolder layout, 4 classes): --images files per format and resolution. Each image
   is a smooth colour gradient plus mid-frequency texture plus fine Gaussian noise, so a JPEG at
   quality 90 takes about 0.3-0.4 byte per pixel, like a photograph. The files are read once so
   the page cache holds them (ramvram then predicts no storage stage).
2. Per-sample costs on one thread, one process, bytes already in RAM: decode alone (PIL
   open + convert("RGB")), decode + light, decode + heavy; the differences are the transforms'
   own costs.
3. Each configuration runs in a fresh child process: ImageFolder + the transform,
   DataLoader(batch_size, sampler with replacement, num_workers, prefetch_factor, pin_memory),
   --warmup batches, then timed batches (enough for about --seconds of work);
   samples/s = timed samples / wall time. A monitor (this process, outside the measured tree)
   samples the child's process tree (main + workers): RSS every --interval s (/proc/PID/statm)
   and PSS/USS from /proc/PID/smaps_rollup every --full-every samples, and the machine's Shmem.
   RSS double-counts pages the main process shares with its forked workers; PSS divides each
   shared page among its sharers, so the tree's PSS sum is the RAM it occupies, plus batches
   in flight through /dev/shm that no process maps at that moment: measured total = peak of
   (tree PSS + Shmem growth - the tree's Pss_Shmem). The child reports its own PSS just before
   the DataLoader is created (the baseline: Python + torch + torchvision + the dataset index)
   and how many batches were waiting in the loader's queues after each step. Each run records
   the CPU other processes used in its timed window.
4. predict: `ramvram advise --json` for the same scenario (dataset size and sample count of the
   files, --image-size, --stored, --crop 224, workers, prefetch, batch, --pin-memory false (torch
   ignores pin_memory without an accelerator, so the measured runs were unpinned),
   --augmentation, --dtype f32, --gpu-demand: 100000 for a data-bound loop, batch / delay for a
   loader-bound one, --storage ssd, --decode-rate: Pillow's one-thread JPEG rate measured in
   step 2, or with --rate-from bench `ramvram bench decode --json` at that resolution).
   Predicted tree memory = the measured baseline + the model's DataLoader items (workers,
   worker-index-copies, decode-buffers, prefetched-batches, loader-main): its os (2 GiB) and
   main-process (3 GiB, CUDA-initialised PyTorch) items describe things a CPU-only benchmark
   doesn't have, and pinned-staging can't be exercised.
   Predicted throughput = the narrowest supplying stage (decode here).

Standard library + torch, torchvision, Pillow and psutil only.
"""

import argparse
import io
import json
import multiprocessing as mp
import os
import platform
import random
import subprocess
import sys
import threading
import time

CLASSES = 4
CROP = 224

# The model's DataLoader items, compared with what the tree used above its baseline.
DATALOADER_ITEMS = (
    "workers",
    "worker-index-copies",
    "decode-buffers",
    "prefetched-batches",
    "loader-main",
)

# id, role, format, resolution, augmentation, workers, prefetch, batch, pin, delay (s per batch,
# 0 = data-bound), index samples (0 = the files), touch (each worker reads every (path, label)
# of the index once when it starts: what one epoch does to it, in seconds instead of an hour).
# role "fit": its numbers set a model constant (docs/validation.md says which); "check": only
# compared with the model.
CONFIGS = [
    ("f1", "fit", "jpeg", "640x480", "light", 0, 2, 32, False, 0, 0, False),
    ("f2", "fit", "jpeg", "640x480", "light", 1, 2, 32, False, 0, 0, False),
    ("f3", "fit", "jpeg", "640x480", "light", 2, 2, 32, False, 0, 0, False),
    ("f4", "fit", "jpeg", "1920x1080", "light", 0, 2, 32, False, 0, 0, False),
    ("f5", "fit", "jpeg", "1920x1080", "light", 1, 2, 32, False, 0, 0, False),
    ("f6", "fit", "jpeg", "1920x1080", "light", 2, 2, 32, False, 0, 0, False),
    ("f7", "fit", "jpeg", "1920x1080", "light", 2, 4, 32, False, 0.9, 0, False),
    ("f8", "fit", "jpeg", "640x480", "heavy", 2, 2, 32, False, 0, 0, False),
    ("c1", "check", "jpeg", "1280x720", "light", 0, 2, 32, False, 0, 0, False),
    ("c2", "check", "jpeg", "1280x720", "heavy", 3, 2, 32, True, 0, 0, False),
    ("c3", "check", "jpeg", "2560x1440", "light", 3, 6, 32, False, 0, 0, False),
    ("c4", "check", "jpeg", "2560x1440", "heavy", 2, 6, 32, True, 0, 0, False),
    ("c5", "check", "png", "1024x1024", "heavy", 1, 2, 32, False, 0, 0, False),
    ("c6", "check", "jpeg", "2560x1440", "light", 3, 6, 32, False, 1.0, 0, False),
    ("c7", "check", "jpeg", "1280x720", "heavy", 2, 4, 32, False, 1.2, 0, False),
    ("c8", "check", "png", "1024x1024", "light", 2, 2, 32, False, 0, 0, False),
    ("c9", "check", "jpeg", "640x480", "heavy", 3, 2, 64, False, 0, 0, False),
    ("c10", "check", "jpeg", "1920x1080", "heavy", 1, 6, 32, True, 2.5, 0, False),
    ("c11", "check", "jpeg", "1280x720", "light", 3, 6, 16, True, 0.5, 0, False),
    ("c12", "check", "jpeg", "2560x1440", "heavy", 0, 2, 32, False, 0, 0, False),
    ("c13", "check", "jpeg", "640x480", "light", 2, 2, 32, False, 0, 1_000_000, False),
    ("c14", "check", "jpeg", "640x480", "light", 2, 2, 32, False, 0, 1_000_000, True),
]
FIELDS = ("id", "role", "format", "res", "aug", "workers", "prefetch", "batch", "pin", "delay",
          "index", "touch")


def configs():
    return [dict(zip(FIELDS, c)) for c in CONFIGS]


def resolution(res):
    w, h = res.lower().split("x")
    return int(w), int(h)


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


def dataset_dir(root, fmt, res):
    return os.path.join(root, f"{fmt}-{res}")


def generate(root, fmt, res, n, quality, seed):
    """Writes n images under root/fmt-WxH/class_k/ (kept between runs). Returns (bytes, files)."""
    w, h = resolution(res)
    rng = random.Random(seed)
    total = 0
    for i in range(n):
        d = os.path.join(dataset_dir(root, fmt, res), f"class_{i % CLASSES}")
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, f"{i:05d}.{fmt}")
        if not os.path.exists(p):
            img = make_image(w, h, rng)
            if fmt == "jpeg":
                img.save(p, "JPEG", quality=quality)
            else:
                img.save(p, "PNG")
        total += os.path.getsize(p)
    print(f"  {fmt} {res}: {n} files, {total} bytes ({total / n / 1024:.0f} KiB/file, "
          f"{total / n / (w * h):.3f} B/pixel)", flush=True)
    return total, n


def file_bytes(root):
    data = []
    for dp, _, fs in sorted(os.walk(root)):
        for f in sorted(fs):
            with open(os.path.join(dp, f), "rb") as fh:
                data.append(fh.read())
    return data


def transform(aug):
    from torchvision import transforms as T

    if aug == "light":
        return T.Compose([T.Resize(256), T.CenterCrop(CROP), T.ToTensor()])
    return T.Compose([
        T.RandomResizedCrop(CROP),
        T.RandomHorizontalFlip(),
        T.ColorJitter(0.4, 0.4, 0.4, 0.1),
        T.GaussianBlur(23),
        T.ToTensor(),
        T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])


# ---------------------------------------------------------------------------------------------
# Per-sample costs on one thread


def measure_costs(folder, seconds):
    """Milliseconds per sample for decode, decode + light, decode + heavy (one thread)."""
    import torch
    from PIL import Image

    torch.set_num_threads(1)
    data = file_bytes(folder)
    out = {}
    for tag in ("decode", "light", "heavy"):
        tf = None if tag == "decode" else transform(tag)
        n = px = 0
        c0, t0 = time.process_time(), time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for b in data:
                img = Image.open(io.BytesIO(b)).convert("RGB")
                px += img.width * img.height
                if tf is not None:
                    tf(img)
                n += 1
                if time.perf_counter() - t0 >= seconds:
                    break
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        out[tag] = {"ms_per_sample": 1000.0 * wall / n, "mpix_per_s": px / wall / 1e6,
                    "samples": n, "cpu_share": cpu / wall}
    for tag in ("light", "heavy"):
        out[f"{tag}_transform_ms"] = out[tag]["ms_per_sample"] - out["decode"]["ms_per_sample"]
    return out


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


def touch_index(_worker_id):
    """Reads every (path, label) of the dataset's index once, as a worker does over an epoch:
    the reference counts written copy the pages holding those objects into this worker."""
    from torch.utils.data import get_worker_info

    n = 0
    for path, label in get_worker_info().dataset.samples:
        n += label
    return n


def child(c):
    t_start = time.perf_counter()
    import torch
    from torch.utils.data import DataLoader, RandomSampler
    from torchvision import datasets

    ds = datasets.ImageFolder(c["root"], transform=transform(c["aug"]))
    if c["index"]:
        # A large index: ImageFolder-style (path, label) tuples, ImageNet-length paths that
        # cycle over the real files (what `self.samples` holds for a 10^6-image dataset).
        # Each entry gets its own path string (same text, a distinct object), as ImageFolder's
        # list of a real dataset has.
        real = ds.samples
        ds.samples = [("".join(real[i % len(real)][0]), i % 1000) for i in range(c["index"])]
        ds.targets = [s[1] for s in ds.samples]
        ds.imgs = ds.samples
    batches = c["warmup"] + c["batches"]
    sampler = RandomSampler(ds, replacement=True, num_samples=batches * c["batch"],
                            generator=torch.Generator().manual_seed(0))
    base = self_memory()
    print("EVENT baseline", json.dumps(base), flush=True)
    w = c["workers"]
    dl = DataLoader(ds, batch_size=c["batch"], sampler=sampler, num_workers=w,
                    prefetch_factor=c["prefetch"] if w > 0 else None,
                    pin_memory=c["pin"], persistent_workers=False,
                    worker_init_fn=touch_index if c.get("touch") else None)
    it = iter(dl)
    for _ in range(c["warmup"]):
        next(it)
    print("EVENT measure_start", flush=True)
    c0, t0 = time.process_time(), time.perf_counter()
    n = 0
    waiting = []
    for _ in range(c["batches"]):
        x, _y = next(it)
        n += x.shape[0]
        if w > 0:
            # Batches done by the workers and not yet taken: outstanding tasks minus the
            # batches still being built (one per busy worker at most).
            q = getattr(it, "_data_queue", None)
            try:
                waiting.append(q.qsize())
            except (AttributeError, NotImplementedError):
                pass
        if c["delay"]:
            time.sleep(c["delay"])  # a stand-in for the GPU's training step
    t1, c1 = time.perf_counter(), time.process_time()
    print("EVENT measure_end", flush=True)
    result = {
        "samples": n,
        "seconds": t1 - t0,
        "samples_per_s": n / (t1 - t0),
        "main_cpu_share": (c1 - c0) / (t1 - t0),
        "baseline": base,
        "startup_s": t0 - t_start,
        "torch_threads": torch.get_num_threads(),
        "queue_waiting_mean": sum(waiting) / len(waiting) if waiting else None,
        "queue_waiting_max": max(waiting) if waiting else None,
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


def run_config(a, c):
    import psutil

    cmd = [sys.executable, os.path.abspath(__file__), "child", json.dumps(c)]
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
        raise RuntimeError(f"child failed (rc {proc.returncode}) for {c['id']}")
    t_base = events.get("baseline", 0.0)
    t_end = events.get("measure_end", float("inf"))
    t_ms = events.get("measure_start", t_base)
    win = [s for s in samples if t_base <= s[0] <= t_end]
    fulls = [s[2] for s in win if s[2] is not None]
    steady = [s[2] for s in win if s[2] is not None and s[0] >= t_ms]
    result["memory"] = {
        "peak_tree_rss": max((s[1] for s in win), default=0),
        "peak_tree_pss": max((f["pss"] for f in fulls), default=0),
        "peak_total": max((f["total"] for f in fulls), default=0),
        "peak_unmapped_shm": max((f["unmapped_shm"] for f in fulls), default=0),
        "peak_tree_uss": max((f["uss"] for f in fulls), default=0),
        "peak_main_pss": max((f["main_pss"] for f in fulls), default=0),
        "peak_workers_pss": max((f["workers_pss"] for f in fulls), default=0),
        "mean_steady_total": (sum(f["total"] for f in steady) / len(steady)) if steady else 0,
        "peak_shmem_delta": max((s[3] for s in win), default=0),
        "max_processes": max((s[4] for s in win), default=0),
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


def planned_batches(c, costs, seconds):
    """Timed batches: about `seconds` of loader work when data-bound; when loader-bound, enough
    for the queue to fill (workers x prefetch) and stay full for a while."""
    ms = costs[f"{c['format']}-{c['res']}"][c["aug"]]["ms_per_sample"]
    lanes = min(max(c["workers"], 1), os.cpu_count() or 1)
    rate = lanes * 1000.0 / ms * 0.7
    if c["delay"]:
        return max(20, 2 * c["workers"] * c["prefetch"] + 6)
    return int(min(120, max(12, seconds * rate / c["batch"])))


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)


def measure(a):
    if a.nice:
        os.nice(a.nice)
        # With autogroup scheduling, nice only ranks processes within their session's group;
        # the group itself competes with other sessions at its own nice.
        try:
            with open("/proc/self/autogroup", "w") as f:
                f.write(str(a.nice))
        except OSError:
            pass
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "measured.json")
    report = load(path) or {"runs": {}}
    report["versions"] = run_json(["versions"])
    report["args"] = vars(a)
    root = a.data
    os.makedirs(root, exist_ok=True)
    wanted = [c for c in configs() if not a.only or c["id"] in a.only]
    sets = sorted({(c["format"], c["res"]) for c in wanted})
    report.setdefault("datasets", {})
    report.setdefault("costs", {})
    print("datasets in", root, flush=True)
    for fmt, res in sets:
        key = f"{fmt}-{res}"
        b, n = generate(root, fmt, res, a.images, a.quality, a.seed)
        file_bytes(dataset_dir(root, fmt, res))  # into the page cache
        report["datasets"][key] = {"bytes": b, "files": n}
        if key not in report["costs"] or a.recost:
            wait_quiet(a.max_wait, a.quiet)
            report["costs"][key] = run_json(["costs", dataset_dir(root, fmt, res),
                                             str(a.cost_seconds)])
            d = report["costs"][key]
            print(f"  {key}: decode {d['decode']['ms_per_sample']:.2f} ms "
                  f"({d['decode']['mpix_per_s']:.0f} MP/s), light +{d['light_transform_ms']:.2f}"
                  f" ms, heavy +{d['heavy_transform_ms']:.2f} ms", flush=True)
        save(path, report)
    for c in wanted:
        repeats = a.repeats if not c["delay"] else 1
        runs = []
        for rep in range(repeats):
            c2 = dict(c, root=dataset_dir(root, c["format"], c["res"]), warmup=a.warmup,
                      batches=planned_batches(c, report["costs"], a.seconds))
            print(f"run {c['id']} ({c['format']} {c['res']} {c['aug']} W{c['workers']} "
                  f"P{c['prefetch']} B{c['batch']} pin={c['pin']} delay={c['delay']}) "
                  f"#{rep + 1}: {c2['batches']} batches", flush=True)
            for attempt in range(a.retries + 1):
                before = wait_quiet(a.max_wait, a.quiet)
                r = run_config(a, c2)
                r["load_before"] = before
                others = r.get("cpu_cores_used", {}).get("others_incl_monitor", 0.0)
                r["others_cpu_cores"] = others
                if others < a.quiet + 0.1:
                    break
                print(f"  others used {others:.2f} cores during the run; again", flush=True)
            m = r["memory"]
            print(f"  {r['samples_per_s']:.1f} samples/s, peak total "
                  f"{m['peak_total'] / 2**20:.0f} MiB (baseline {r['baseline']['pss'] / 2**20:.0f})"
                  f", queue {r['queue_waiting_mean']}, others {others:.2f} cores", flush=True)
            runs.append(r)
        report["runs"][c["id"]] = {"config": c, "runs": runs}
        save(path, report)


def ramvram_json(a, args):
    out = subprocess.run([a.ramvram] + args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def decode_rate(a, measured, c):
    """JPEG decode rate per core for the prediction, MP/s: Pillow's one-thread rate measured on
    these files (--rate-from pil, the decoder the workers run), or `ramvram bench decode` at the
    same resolution (--rate-from bench). PNG files are predicted from the JPEG rate (the model
    applies its PNG factor): Pillow's mean JPEG rate over the resolutions measured."""
    if a.rate_from == "bench":
        res = c["res"]
        d = ramvram_json(a, ["bench", "decode", "--image-size", res, "--json"])
        return d["per_core_mpix_per_s"]
    costs = measured["costs"]
    key = f"{c['format']}-{c['res']}"
    if c["format"] == "jpeg" and key in costs:
        return costs[key]["decode"]["mpix_per_s"]
    jpeg = [v["decode"]["mpix_per_s"] for k, v in costs.items() if k.startswith("jpeg-")]
    return sum(jpeg) / len(jpeg)


def pct(pred, meas):
    return None if not meas else 100.0 * (pred - meas) / meas


def predict(a):
    measured = load(os.path.join(a.out, "measured.json"))
    rates = {}
    rows = []
    for cid, entry in measured["runs"].items():
        c = entry["config"]
        runs = entry["runs"]
        ds = measured["datasets"][f"{c['format']}-{c['res']}"]
        key = f"{c['format']}-{c['res']}"
        if key not in rates:
            rates[key] = decode_rate(a, measured, c)
        samples = c["index"] or ds["files"]
        dataset = ds["bytes"] * samples // ds["files"]
        demand = 100000 if not c["delay"] else c["batch"] / c["delay"]
        cmd = ["advise", "--profile", a.profile, "--json",
               "--dataset-size", str(dataset), "--samples", str(samples),
               "--image-size", c["res"], "--stored", c["format"], "--crop", str(CROP),
               "--num-workers", str(c["workers"]), "--batch-size", str(c["batch"]),
               # torch ignores pin_memory without an accelerator: the measured run was unpinned.
               "--pin-memory", "false",
               "--augmentation", c["aug"], "--dtype", "f32",
               "--gpu-demand", f"{demand:.3f}", "--storage", "ssd",
               "--decode-rate", f"{rates[key]:.3f}"]
        if c["workers"] > 0:
            cmd += ["--prefetch-factor", str(c["prefetch"])]
        d = ramvram_json(a, cmd)
        items = {i["id"]: i["bytes"] for i in d["memory_budget"]["items"]}
        stages = {s["id"]: s["samples_per_s"] for s in d["pipeline"]["stages"]}
        supply = min(v for k, v in stages.items() if v is not None and k != "gpu-demand")
        loader = sum(items.get(i, 0) for i in DATALOADER_ITEMS)
        tput = sum(r["samples_per_s"] for r in runs) / len(runs)
        base = sum(r["baseline"]["pss"] for r in runs) / len(runs)
        total = max(r["memory"]["peak_total"] for r in runs)
        # A loader-bound loop runs at the consumer's pace; compare memory only there.
        pred_tput = None if c["delay"] else supply
        rows.append({
            "id": cid, "role": c["role"], "format": c["format"], "res": c["res"],
            "aug": c["aug"], "workers": c["workers"],
            "prefetch": c["prefetch"] if c["workers"] else None, "batch": c["batch"],
            "pin": c["pin"], "delay": c["delay"], "index": c["index"],
            "touch": c.get("touch", False),
            "decode_rate": rates[key],
            "measured_samples_per_s": tput,
            "measured_spread": [r["samples_per_s"] for r in runs],
            "predicted_samples_per_s": pred_tput,
            "err_tput_pct": pct(pred_tput, tput) if pred_tput else None,
            "baseline_mib": base / 2**20, "measured_total_mib": total / 2**20,
            "predicted_loader_mib": loader / 2**20,
            "predicted_total_mib": (base + loader) / 2**20,
            "err_mem_pct": pct(base + loader, total),
            "queue_waiting_mean": runs[0].get("queue_waiting_mean"),
            "predicted_items_mib": {k: v / 2**20 for k, v in items.items()
                                    if k in DATALOADER_ITEMS},
            "others_cpu_cores": max(r["others_cpu_cores"] for r in runs),
            "command": "ramvram " + " ".join(cmd),
        })
    save(os.path.join(a.out, "predicted.json"), {"rows": rows, "decode_rates": rates})
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("| id | role | config | W / P / B / pin | measured samples/s | predicted | "
                "error | measured MiB | predicted MiB | error |\n|---|---|---|---|---|---|---|"
                "---|---|---|\n")
        for r in rows:
            cfg = f"{r['res']} {r['format'].upper()}, {r['aug']}" + (
                f", loader-bound ({r['delay']} s/batch)" if r["delay"] else "") + (
                f", {r['index']:,}-sample index" if r["index"] else "") + (
                ", every entry read once" if r["touch"] else "")
            wp = f"{r['workers']} / {r['prefetch'] or '–'} / {r['batch']} / " + (
                "on" if r["pin"] else "off")
            tp = (f"{r['predicted_samples_per_s']:.1f}", f"{r['err_tput_pct']:+.0f} %") \
                if r["predicted_samples_per_s"] else ("–", "–")
            f.write(f"| {r['id']} | {r['role']} | {cfg} | {wp} | "
                    f"{r['measured_samples_per_s']:.1f} | {tp[0]} | {tp[1]} | "
                    f"{r['measured_total_mib']:.0f} | {r['predicted_total_mib']:.0f} | "
                    f"{r['err_mem_pct']:+.0f} % |\n")
        for role in ("fit", "check"):
            t = [abs(r["err_tput_pct"]) for r in rows
                 if r["role"] == role and r["err_tput_pct"] is not None]
            m = [abs(r["err_mem_pct"]) for r in rows if r["role"] == role]
            f.write(f"\n{role}: throughput within ±30 % in {sum(x <= 30 for x in t)} of {len(t)}"
                    f" (worst {max(t, default=0):.0f} %); memory within ±25 % in "
                    f"{sum(x <= 25 for x in m)} of {len(m)} (worst {max(m, default=0):.0f} %)\n")
    print(open(os.path.join(a.out, "table.md")).read())


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child(json.loads(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "costs":
        print(json.dumps(measure_costs(sys.argv[2], float(sys.argv[3]))))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "versions":
        print(json.dumps(versions()))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="phase", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--data", default="/tmp/dlval-data", help="dataset folder (kept)")
    m.add_argument("--out", default="dataloader-validation")
    m.add_argument("--only", nargs="+", help="configuration ids to (re)run")
    m.add_argument("--recost", action="store_true",
                   help="measure the one-thread costs again even when measured.json has them")
    m.add_argument("--images", type=int, default=200, help="files per format and resolution")
    m.add_argument("--quality", type=int, default=90)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--warmup", type=int, default=3, help="batches before timing")
    m.add_argument("--seconds", type=float, default=10.0,
                   help="timed work per data-bound run, s (sets the batch count)")
    m.add_argument("--repeats", type=int, default=2, help="runs of each data-bound config")
    m.add_argument("--cost-seconds", type=float, default=3.0)
    m.add_argument("--interval", type=float, default=0.05, help="RSS sampling period, s")
    m.add_argument("--full-every", type=int, default=6,
                   help="read PSS/USS every N RSS samples")
    m.add_argument("--quiet", type=float, default=0.3,
                   help="run only when other processes use under this many cores")
    m.add_argument("--max-wait", type=float, default=120, help="seconds to wait for quiet")
    m.add_argument("--retries", type=int, default=1,
                   help="reruns of a configuration disturbed by other processes")
    m.add_argument("--nice", type=int, default=0,
                   help="nice increment for this run and its children, also applied to the "
                        "session's autogroup (negative needs root)")
    p = sub.add_parser("predict")
    p.add_argument("--out", default="dataloader-validation")
    p.add_argument("--ramvram", required=True, help="ramvram binary")
    p.add_argument("--profile", required=True, help="ramvram profile of the measured machine")
    p.add_argument("--rate-from", choices=("pil", "bench"), default="pil",
                   help="decode rate per core: Pillow's, measured on the files (default), or "
                        "ramvram bench decode's")
    a = ap.parse_args()
    if a.phase == "measure":
        measure(a)
    else:
        predict(a)


if __name__ == "__main__":
    main()
