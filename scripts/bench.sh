#!/usr/bin/env bash
# `npm run bench`: builds and runs every benchmark in bench/, each printing its figures.
# BENCH_ONLY=pipeline,gateway-cache runs only those (names as in bench/<name>.bench.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# wrk (Debian) measures the fast GET figures; without it the benches fall back to their Node client.
if ! command -v wrk >/dev/null && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "==> installing wrk (HTTP load generator) with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null || true
fi
# pgbench (Debian) is the lending bench's yardstick on its own PostgreSQL. Debian 12 ships it in the
# server package postgresql-15 (which postgresql-contrib pulls in), not in postgresql-client-15; the
# apt-get of postgresql-contrib is told not to create (and start) a cluster of its own.
if ! pgbench --version >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "==> installing pgbench (PostgreSQL benchmark) with apt-get"
  apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null || true
  if ! pgbench --version >/dev/null 2>&1; then
    mkdir -p /etc/postgresql-common
    if ! grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf; then
      echo 'create_main_cluster = false' >>/etc/postgresql-common/createcluster.conf
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-contrib >/dev/null || true
  fi
fi
# Radicale (Debian's python3-radicale) is the caldav bench's yardstick; the bench runs the same script
# itself, so it also works when started alone from dist/.
if [ -z "${BENCH_ONLY:-}" ] || [[ ",${BENCH_ONLY// /}," == *",caldav,"* ]]; then
  bash scripts/ensure-radicale.sh || true
fi
npm run build --silent
only="${BENCH_ONLY:-}"
ran=0
for b in dist/bench/*.bench.js; do
  name="$(basename "$b" .bench.js)"
  if [ -n "$only" ] && [[ ",${only// /}," != *",$name,"* ]]; then continue; fi
  echo "==> $name"
  node -r ./dist/scripts/register-paths.js "$b"
  ran=$((ran + 1))
done
if [ "$ran" -eq 0 ]; then
  echo "no benchmark matches BENCH_ONLY=$only (see bench/*.bench.ts)" >&2
  exit 1
fi
