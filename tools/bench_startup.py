#!/usr/bin/env python3
"""Startup and footprint benchmark for the ramvram window (docs/benchmarks.md).

    python3 tools/bench_startup.py BINARY [--runs 10] [--idle 10] [-- APP ARGS...]

Starts its own Xvfb (1400x900x24, black root), then for each run:

* first frame: the time from just before the process is spawned to the first moment the
  window's header (the top-left 640 x 80 pixels of the screen, where the window opens without
  a window manager: the title and the first buttons) shows a rendered egui frame, i.e. at
  least 16 distinct colours (anti-aliased text); before that it is the black root, one colour.
  The area is read with XGetImage through libX11 (ctypes, no extra packages) every ~5 ms; a
  read takes well under a millisecond, so the poller barely competes with the app for the
  CPU, and the figure has about 5 ms of slack;
* after the last run, the process is left idle (no input, nothing changing) for 2 s, then for
  --idle seconds: its CPU time from /proc/PID/stat (utime + stime) over wall time, the number
  of frames it presented meanwhile (screen reads that changed), and its memory from
  /proc/PID/status (VmRSS, RssAnon, RssFile, VmHWM) and /proc/PID/smaps_rollup (Pss).

Standard library only; needs Xvfb and libX11 (Debian: xvfb, libx11-6).
"""

import argparse
import ctypes
import ctypes.util
import os
import statistics
import subprocess
import sys
import tempfile
import time

# --- minimal libX11 through ctypes -----------------------------------------------------------
x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                          ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XFree.argtypes = [ctypes.c_void_p]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
ZPixmap = 2
AllPlanes = 0xFFFFFFFF


class XImage(ctypes.Structure):
    """The leading fields of Xlib's XImage (enough to reach the pixel data)."""

    _fields_ = [
        ("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_char)),
        ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


libc = ctypes.CDLL(None)
libc.free.argtypes = [ctypes.c_void_p]


def grab(dpy, root, w, h):
    """Bytes of the screen's top-left w x h area (32 bits per pixel)."""
    p = x11.XGetImage(dpy, root, 0, 0, w, h, AllPlanes, ZPixmap)
    if not p:
        return None
    img = ctypes.cast(p, ctypes.POINTER(XImage)).contents
    data = ctypes.string_at(img.data, img.bytes_per_line * img.height)
    libc.free(ctypes.cast(img.data, ctypes.c_void_p))
    x11.XFree(p)
    return data


def colours(data, step=53):
    """Distinct 32-bit pixel values among every step-th pixel."""
    return len(set(memoryview(data).cast("I")[::step]))


# --- /proc -------------------------------------------------------------------------------------
CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def status_kib(pid, keys=("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM", "Threads")):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in keys:
                out[k] = int(v.split()[0])
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    out["Pss"] = int(line.split()[1])
    except OSError:
        pass
    return out


# --- the benchmark -----------------------------------------------------------------------------
def start_xvfb():
    r, w = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", "1400x900x24", "-nolisten", "tcp", "-br"],
        pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    num = b""
    while not num.endswith(b"\n"):
        chunk = os.read(r, 16)
        if not chunk:
            sys.exit("Xvfb did not start")
        num += chunk
    os.close(r)
    return xvfb, ":" + num.decode().strip()


def first_frame(args, env, dpy, root, timeout=30.0):
    """Spawns the app; returns (process, seconds to first rendered frame)."""
    t0 = time.monotonic()
    proc = subprocess.Popen([args.binary, *args.app_args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            sys.exit(f"{args.binary} exited with {proc.returncode} before its first frame")
        data = grab(dpy, root, 640, 80)
        if data and colours(data, step=7) >= 16:
            return proc, time.monotonic() - t0
        time.sleep(0.005)
    proc.kill()
    sys.exit("no frame within the timeout")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    argv = sys.argv[1:]
    app_args = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.app_args = app_args

    xvfb, display = start_xvfb()
    runtime = tempfile.mkdtemp(prefix="ramvram-bench-")
    os.chmod(runtime, 0o700)
    env = dict(os.environ, DISPLAY=display, XDG_RUNTIME_DIR=runtime,
               XDG_CONFIG_HOME=os.path.join(runtime, "config"))
    env.pop("WAYLAND_DISPLAY", None)
    dpy = x11.XOpenDisplay(display.encode())
    if not dpy:
        sys.exit(f"cannot open display {display}")
    root = x11.XDefaultRootWindow(dpy)
    proc = None
    try:
        times = []
        for i in range(args.runs):
            proc, t = first_frame(args, env, dpy, root)
            times.append(t)
            last = i == args.runs - 1
            if not last:
                proc.terminate()
                proc.wait()
                time.sleep(0.3)
        print(f"first frame over {len(times)} runs (ms): "
              + " ".join(f"{t * 1000:.0f}" for t in times))
        print(f"  median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f}, "
              f"max {max(times) * 1000:.0f}")

        # Idle: leave the last process alone, count CPU time and presented frames.
        time.sleep(2.0)
        before_frame = grab(dpy, root, 1280, 820)
        ticks0, w0 = cpu_ticks(proc.pid), time.monotonic()
        changes = 0
        while time.monotonic() - w0 < args.idle:
            time.sleep(0.25)
            frame = grab(dpy, root, 1280, 820)
            if frame != before_frame:
                changes += 1
                before_frame = frame
        ticks1, w1 = cpu_ticks(proc.pid), time.monotonic()
        cpu = (ticks1 - ticks0) / CLK_TCK / (w1 - w0) * 100
        mem = status_kib(proc.pid)
        print(f"idle {w1 - w0:.1f} s: CPU {cpu:.2f} % of one core "
              f"({ticks1 - ticks0} ticks of 1/{CLK_TCK} s); screen changed in {changes} of "
              f"{int((w1 - w0) / 0.25)} samples")
        print("memory (MiB): " + ", ".join(
            f"{k} {v / 1024:.1f}" for k, v in mem.items() if k != "Threads")
            + f"; threads {mem.get('Threads')}")
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            proc.wait()
        x11.XCloseDisplay(dpy)
        xvfb.terminate()
        xvfb.wait()


if __name__ == "__main__":
    main()
