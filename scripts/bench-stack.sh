#!/usr/bin/env bash
# Measures the stack of deploy/ under Docker Swarm on this machine (docs/performance.md#stack):
#   1. seconds from `docker stack deploy` to the first league game done (the stack comes up,
#      two example bots are uploaded over HTTP and validated, a worker plays a game);
#   2. league games per hour with 1, 2 and 4 worker replicas (each plays one game at a time,
#      MJAI_SIM_WORKER_JOBS=1): done games counted over WINDOW seconds after WARM seconds.
# Uses deploy/stack.host-network.yml (this kernel carries no overlay traffic), 127.0.0.1 only,
# a single-node swarm (made when the daemon is in none, and left), mjai-sim's image of
# MJAI_SIM_BIN (default target/release/mjai-sim; built when missing). Removes its stack and
# its volume.
#
#   scripts/bench-stack.sh            # WINDOW=120 WARM=20 by default (short runs)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${MJAI_SIM_BIN:-target/release/mjai-sim}
window=${WINDOW:-120}
warm=${WARM:-20}
name=mjaibench$$
secrets=$(mktemp -d)
cleanup() {
    docker stack rm "$name" >/dev/null 2>&1 || true
    for _ in $(seq 120); do
        [[ -z $(docker ps -aq -f "label=com.docker.stack.namespace=$name") ]] && break
        sleep 0.5
    done
    for _ in $(seq 20); do docker volume rm "${name}_pgdata" >/dev/null 2>&1 && break; sleep 0.5; done
    rm -rf "$secrets"
}
trap cleanup EXIT

image=$("$bin" image build --self 2>/dev/null)
"$bin" image build >/dev/null 2>&1
[[ $(docker info -f '{{.Swarm.LocalNodeState}}') == active ]] || docker swarm init --advertise-addr 127.0.0.1 >/dev/null
node=$(docker info -f '{{.Swarm.NodeID}}')
docker node update --label-add mjai-sim.db=true --label-add mjai-sim.worker=true "$node" >/dev/null
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
db_port=$(free_port)
openssl rand -hex 16 >"$secrets/db_password" 2>/dev/null || head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$secrets/db_password"
admin=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$admin" >"$secrets/admin_token"
export MJAI_SIM_IMAGE=$image MJAI_SIM_PORT=$port MJAI_SIM_DB_PORT=$db_port MJAI_SIM_WORKERS=1 \
    MJAI_SIM_WORKER_JOBS=1 MJAI_SIM_SECRETS=$secrets DOCKER_GID=$(stat -c %g /var/run/docker.sock)

done_games() {
    local db
    db=$(docker ps -q -f "label=com.docker.swarm.service.name=${name}_db")
    docker exec "$db" psql -h /tmp -p "$db_port" -U mjai -d mjai -tAc "SELECT COUNT(*) FROM games WHERE state = 'done'" 2>/dev/null || echo 0
}
zip=$(mktemp -d)/bot.zip
(cd examples/tsumogiri && python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write("bot.py"); z.close()' "$zip")

start=$(date +%s.%N)
docker stack deploy -c deploy/stack.yml -c deploy/stack.host-network.yml "$name" >/dev/null
until curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do sleep 0.5; done
up=$(date +%s.%N)
# two authors (a table seats at most one bot of each author): the admin and one added inside
serve=$(docker ps -q -f "label=com.docker.swarm.service.name=${name}_serve")
other=$(docker exec "$serve" mjai-sim serve author add benchauthor 2>/dev/null)
for b in "benchone $admin" "benchtwo $other"; do
    set -- $b
    curl -fsS -o /dev/null -H "Authorization: Bearer $2" -F "name=$1" -F "file=@$zip" "http://127.0.0.1:$port/api/bots"
done
until [[ $(done_games) -ge 1 ]]; do sleep 0.5; done
first=$(date +%s.%N)
printf 'healthz 200 after %.1f s; first league game done %.1f s after deploy\n' \
    "$(echo "$up - $start" | bc)" "$(echo "$first - $start" | bc)"

for n in 1 2 4; do
    docker service scale --detach=false "${name}_worker=$n" >/dev/null 2>&1
    sleep "$warm"
    a=$(done_games)
    sleep "$window"
    b=$(done_games)
    echo "workers=$n games=$((b - a)) in ${window}s: $(((b - a) * 3600 / window)) games/hour"
done
