#!/usr/bin/env bash
# Throughput and CPU breakdown of a Docker tournament of four example tsumogiri bots: wall
# time, hanchans per hour, and CPU-seconds per game spent by mjai-sim, the bots' containers
# (cgroup cpuacct of Docker's cgroup parent: removed containers stay counted there), dockerd,
# containerd, and everything else on the host (containerd-shim processes, and any unrelated
# load: read the load average printed beside the figures).
# Usage: scripts/tournament-cpu.sh SETS [extra tournament options, e.g. --keep-bots --jobs 4]
# Needs: the release build and the bot image (`cargo run --release -- image build`); the
# containers' share needs cgroup v1 with the cgroupfs driver (`docker info`), as on this
# machine; elsewhere it is counted under "other".
set -euo pipefail
cd "$(dirname "$0")/.."
sets=${1:?usage: scripts/tournament-cpu.sh SETS [options]}
shift
bin=${MJAI_SIM_BIN:-target/release/mjai-sim}
[[ -x $bin ]] || { echo "tournament-cpu: build first: cargo build --release" >&2; exit 1; }
bot=examples/tsumogiri
tick=$(getconf CLK_TCK)

# CPU nanoseconds: the whole host, and Docker's containers.
host_ns() { awk -v t="$tick" '/^cpu /{print ($2+$3+$4+$7+$8) * 1e9 / t}' /proc/stat; }
containers_ns() {
    if [[ -r /sys/fs/cgroup/cpuacct/docker/cpuacct.usage ]]; then
        cat /sys/fs/cgroup/cpuacct/docker/cpuacct.usage
    else
        echo 0
    fi
}
# CPU nanoseconds of the long-lived daemons named $1 (utime + stime of every process).
daemon_ns() {
    local total=0 pid
    for pid in $(pgrep -x "$1"); do
        total=$(awk -v t="$tick" -v acc="$total" '{print acc + ($14 + $15) * 1e9 / t}' "/proc/$pid/stat")
    done
    echo "$total"
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
h0=$(host_ns) c0=$(containers_ns) d0=$(daemon_ns dockerd) k0=$(daemon_ns containerd)
start=$(date +%s.%N)
/usr/bin/time -f '%U %S %M' -o "$out/time" "$bin" tournament "$bot" "$bot" "$bot" "$bot" \
    --sets "$sets" --seed 1 --no-html --dir "$out/t" "$@" >"$out/stdout" 2>"$out/stderr" || {
    echo "tournament-cpu: the tournament failed:" >&2
    tail -5 "$out/stderr" >&2
    exit 1
}
end=$(date +%s.%N)
h1=$(host_ns) c1=$(containers_ns) d1=$(daemon_ns dockerd) k1=$(daemon_ns containerd)
read -r user sys rss <"$out/time"
load=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$sets" "$start" "$end" "$user" "$sys" "$rss" "$h0" "$h1" "$c0" "$c1" "$d0" "$d1" "$k0" "$k1" "$load" <<'PY'
import sys
a = sys.argv[1:]
games = int(a[0]) * 4
wall = float(a[2]) - float(a[1])
own = float(a[3]) + float(a[4])
host, cont, dockerd, containerd = ((float(a[i + 1]) - float(a[i])) / 1e9 for i in (6, 8, 10, 12))
other = host - own - cont - dockerd - containerd
print(f"{games} hanchans in {wall:.1f} s wall: {games * 3600 / wall:.0f}/hour; load average {a[14]}")
print(f"mjai-sim max RSS {int(a[5]) // 1024} MiB")
print("CPU-seconds per game:")
for name, v in (("mjai-sim", own), ("containers (bots)", cont), ("dockerd", dockerd),
                ("containerd", containerd), ("other (shims, unrelated load)", other), ("host total", host)):
    print(f"  {name:32} {v / games:7.3f}")
PY
