#!/usr/bin/env bash
# Issue 30: examples/shanten declares riichi only on a hand with a wait, so it never pays a
# chombo. Plays SETS duplicate sets (4 hanchans each; default 250 = 1,000 games) of four
# examples/shanten seats in Docker (the bot image's mahjong 1.2.1, whose shanten calls a
# chiitoitsu with a triplet tenpai), then prints games, riichi rate and chombos from the
# standings; exit 1 on any chombo. Resumable: run it again with the same DIR after Ctrl-C
# (the standings then count the games played so far).
# Usage: scripts/check-shanten-riichi.sh [SETS] [DIR]
# Environment: MJAI_SIM_BIN (the binary; default target/release/mjai-sim), JOBS (games at
# once; default: mjai-sim's, 2 per CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MJAI_SIM_BIN:-target/release/mjai-sim}
sets=${1:-250}
dir=${2:-logs/check-shanten-riichi}
bots=(a=examples/shanten b=examples/shanten c=examples/shanten d=examples/shanten)
if [[ -f $dir/tournament.sqlite ]]; then
    "$bin" tournament --resume "$dir" ${JOBS:+--jobs "$JOBS"} || true
else
    "$bin" tournament --sets "$sets" --seed 30 --keep-bots --no-html ${JOBS:+--jobs "$JOBS"} --dir "$dir" "${bots[@]}" || true
fi
"$bin" standings "$dir" --json >"$dir/standings-now.json"
python3 - "$dir/standings-now.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
bots = s["bots"]
games = s["games"]
chombos = sum(b["chombos"] for b in bots)
riichi = sum((b["riichi_rate"] or 0) * b["kyokus"] for b in bots)
print(f"{games} games, {sum(b['kyokus'] for b in bots) // 4} hands, {riichi:.0f} riichi declared, {chombos} chombo(s)")
sys.exit(1 if chombos else 0)
PY
