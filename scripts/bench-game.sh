#!/usr/bin/env bash
# Wall time of one hanchan with four tsumogiri example bots in Docker, from command start to
# exit, as a user sees it (container start and stop included). Prints each run and the
# median. Usage: scripts/bench-game.sh [RUNS (default 3)] [extra mjai-sim options...]
# With a three-player preset among the options (`--rules riichi-dev-3p`) three bots play.
# Needs: the release build and the bot image (`cargo run --release -- image build`).
# Reference: mjai.app takes 19.2 s for the same game on this machine kind; target <= 2.0 s.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
bin=target/release/mjai-sim
cargo build --release --quiet
bot=examples/tsumogiri
[[ -f $bot/bot.py ]] || { echo "bench: $bot/bot.py is missing (example bots not merged?)" >&2; exit 1; }
bots=("$bot" "$bot" "$bot" "$bot")
[[ " $* " == *-3p* ]] && bots=("$bot" "$bot" "$bot")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
times=()
for ((i = 1; i <= runs; i++)); do
    start=$(date +%s.%N)
    if ! "$bin" --seed "$i" --logs-dir "$out/run$i" "$@" "${bots[@]}" >"$out/run$i.out" 2>"$out/run$i.err"; then
        echo "bench: run $i failed:" >&2
        tail -5 "$out/run$i.err" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    t=$(python3 -c "print(f'{$end - $start:.2f}')")
    hands=$(python3 -c "import json;print(json.load(open('$out/run$i/summary.json'))['kyoku_count'])")
    echo "run $i: ${t} s wall, $hands hands"
    times+=("$t")
done
python3 -c "import statistics,sys; print(f'median of {len(sys.argv)-1} runs: {statistics.median(map(float, sys.argv[1:])):.2f} s wall per hanchan')" "${times[@]}"
