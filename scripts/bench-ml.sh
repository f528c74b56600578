#!/usr/bin/env bash
# The ml image's figures (docs/performance.md, "ML image"): both images' sizes; `import torch`
# and `import torch` + loading examples/mlbot's model in the ml image (5 runs each, median);
# one hanchan of 4 × examples/mlbot (--image ml) and of 4 × examples/tsumogiri (default image),
# RUNS each: wall time, decision p50/p99 (summary.json) and the peak memory of each container
# (its cgroup's memory.peak, v2, or memory.max_usage_in_bytes, v1, read while the game runs).
# Usage: scripts/bench-ml.sh [RUNS (default 3)]. Needs the release build and both images
# (`mjai-sim image build --ml` builds both).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
bin=target/release/mjai-sim
cargo build --release --quiet
"$bin" image build --ml >/dev/null
default=$("$bin" image name)
ml=$("$bin" image name --ml)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "$@"; }

for image in "$default" "$ml"; do
    size=$(docker image inspect -f '{{.Size}}' "$image")
    echo "image $image: $(python3 -c "print(f'{$size/1e6:.0f}')") MB"
done

load='import time; t = time.perf_counter(); import torch; a = time.perf_counter() - t
import sys; sys.path.insert(0, "/bot"); import bot; m = bot.MlBot(0, "/bot/model.pt"); b = time.perf_counter() - t
print(f"{a:.3f} {b:.3f}")'
imports=(); loads=()
for i in 1 2 3 4 5; do
    read -r a b < <(docker run --rm --network none -v "$PWD/examples/mlbot:/bot:ro" "$ml" python3 -c "$load")
    imports+=("$a"); loads+=("$b")
done
echo "ml image: import torch ${imports[*]} s (median $(median "${imports[@]}") s); import + model load ${loads[*]} s (median $(median "${loads[@]}") s)"

(cd examples/mlbot && zip -q "$out/mlbot.zip" bot.py features.py model.pt)
# peak memory of every container of the game, from its cgroup, sampled every 0.2 s
sample_peaks() {
    while [[ -e $1.running ]]; do
        for id in $(docker ps -q --no-trunc --filter label=mjai-sim.game); do
            for f in /sys/fs/cgroup/system.slice/docker-$id.scope/memory.peak /sys/fs/cgroup/docker/$id/memory.peak \
                /sys/fs/cgroup/memory/docker/$id/memory.max_usage_in_bytes; do
                [[ -r $f ]] && echo "$id $(cat "$f" 2>/dev/null || echo 0)" >>"$1.peaks" && break
            done
        done
        sleep 0.2
    done
}
game() { # name bot image
    local walls=() name=$1 bot=$2 image=$3
    for ((i = 1; i <= runs; i++)); do
        local dir=$out/$name$i
        touch "$dir.running"; sample_peaks "$dir" & local sampler=$!
        local start; start=$(date +%s.%N)
        "$bin" --seed "$i" --image "$image" --logs-dir "$dir" "$bot" "$bot" "$bot" "$bot" >/dev/null 2>"$dir.err" || { tail -3 "$dir.err"; exit 1; }
        local end; end=$(date +%s.%N)
        rm "$dir.running"; wait "$sampler"
        walls+=("$(python3 -c "print(f'{$end - $start:.2f}')")")
        python3 - "$dir" <<'PY'
import json, sys, collections
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
t = s["decision_times"]
peaks = collections.defaultdict(int)
try:
    for line in open(f"{d}.peaks"):
        cid, v = line.split()
        peaks[cid] = max(peaks[cid], int(v))
except FileNotFoundError:
    pass
mib = sorted(v / 2**20 for v in peaks.values())
print(f"  {d.rsplit('/', 1)[1]}: {s['kyoku_count']} hands, chombos {s['chombos']}, decision p50 "
      f"{max(x['median_ms'] for x in t):.2f} ms, p99 {max(x['p99_ms'] for x in t):.2f} ms (worst seat), "
      f"container peak memory {', '.join(f'{m:.0f}' for m in mib) or '?'} MiB")
PY
    done
    echo "$name: wall ${walls[*]} s (median $(median "${walls[@]}") s per hanchan)"
}
game mlbot "$out/mlbot.zip" ml
game tsumogiri examples/tsumogiri default
