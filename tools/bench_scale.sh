#!/bin/sh
# Scale figures of issue 25 (docs/benchmarks.md): 100,000 Slurm nodes as text, JSON and
# reports; a 256 MiB trace; 50,000 GPUs in one trace sample. Inputs come from
# tools/gen_scale_inputs.py (deterministic). Each run is timed by GNU time; one line each:
# what, exit status, wall seconds, user + system CPU seconds, peak RSS in MiB.
#
#   tools/bench_scale.sh BINARY [WORKDIR]
#
# BINARY is a release build (cargo build --release: $CARGO_TARGET_DIR/release/ramvram).
set -eu
B=$1
W=${2:-/tmp/ramvram-scale}
mkdir -p "$W"
here=$(dirname "$0")
[ -e "$W/nodes100k.json" ] || python3 "$here/gen_scale_inputs.py" slurm 100000 "$W/nodes100k.json"
[ -e "$W/trace256.jsonl" ] || python3 "$here/gen_scale_inputs.py" trace 256 "$W/trace256.jsonl"
[ -e "$W/gpus50k.jsonl" ] || python3 "$here/gen_scale_inputs.py" gpus 50000 "$W/gpus50k.jsonl"

run() {
    name=$1
    shift
    set +e
    /usr/bin/time -f "%x %e %U %S %M" -o "$W/time.txt" "$@" >/dev/null 2>"$W/err.txt"
    set -e
    read -r code wall user sys kib <"$W/time.txt" || true
    # GNU time writes "Command exited with non-zero status N" first when it fails.
    if [ "$code" = "Command" ]; then
        read -r code wall user sys kib <<EOT
$(tail -n 1 "$W/time.txt")
EOT
    fi
    printf '%-40s exit %-3s wall %6.2f s  cpu %6.2f s  rss %7.1f MiB\n' "$name" "$code" "$wall" \
        "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $kib / 1024" | bc)"
}

run "advise --slurm (text), 100k nodes" "$B" advise --lang en --slurm "$W/nodes100k.json"
run "advise --slurm --json, 100k nodes" "$B" advise --lang en --json --slurm "$W/nodes100k.json"
run "report --slurm md, 100k nodes" "$B" report --lang en --slurm "$W/nodes100k.json" --out "$W/fleet.md"
run "report --slurm json, 100k nodes" "$B" report --lang en --slurm "$W/nodes100k.json" --out "$W/fleet.json"
run "report --slurm md --lang both, 100k" "$B" report --lang both --slurm "$W/nodes100k.json" --out "$W/fleet2.md"
run "report --slurm pdf, 100k (refused)" "$B" report --lang en --slurm "$W/nodes100k.json" --out "$W/fleet.pdf"
run "diagnose, 256 MiB trace" "$B" diagnose --lang en "$W/trace256.jsonl"
run "diagnose, 50,000 GPUs a sample" "$B" diagnose --lang en "$W/gpus50k.jsonl"
# The last run's message (50,000 GPUs: refused by the per-sample cap, naming the field).
head -c 400 "$W/err.txt"
echo
