#!/usr/bin/env bash
# Time to first render of a viewer page in headless Chromium: median over RUNS loads of
# the page's own figure (performance.now() when the first render is done, i.e. from the
# start of navigation: parse, JSON.parse of the embedded log, first table drawn; and the part
# spent in the viewer's script), and the
# median wall time of the whole chromium --dump-dom process (browser start included).
# Usage: scripts/view-render-time.sh PAGE.html [RUNS]   (default 9 runs)
# Chromium's own services are pointed at a closed local proxy: nothing leaves the machine.
set -euo pipefail
page=$(realpath "$1")
runs=${2:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in_page=()
script=()
wall=()
for _ in $(seq "$runs"); do
  t0=$(date +%s%N)
  dom=$(chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --proxy-server=http://127.0.0.1:9 '--proxy-bypass-list=<-loopback>' \
    '--host-resolver-rules=MAP * ~NOTFOUND' --user-data-dir="$work/profile" \
    --dump-dom "file://$page" 2>/dev/null)
  t1=$(date +%s%N)
  in_page+=("$(grep -o 'data-render-ms="[0-9.]*"' <<<"$dom" | head -1 | grep -o '[0-9.]*')")
  script+=("$(grep -o 'data-script-ms="[0-9.]*"' <<<"$dom" | head -1 | grep -o '[0-9.]*')")
  wall+=("$(( (t1 - t0) / 1000000 ))")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "$(basename "$page"): $(stat -c %s "$page") bytes; first render $(median "${in_page[@]}") ms after navigation start, $(median "${script[@]}") ms of it in the viewer's script (medians of $runs); chromium process $(median "${wall[@]}") ms"
