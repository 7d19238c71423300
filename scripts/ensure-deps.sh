#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on a fresh machine: npm dependencies (when the lockfile
# changed since the last install) and Debian's librdkafka1, whose mock cluster is the embedded Kafka
# broker. Nothing else is fetched.
set -euo pipefail
cd "$(dirname "$0")/.."

# Captured first: `grep -q` exits early, and under pipefail ldconfig's SIGPIPE would read as "missing".
libs=$(ldconfig -p 2>/dev/null || true)
if [ -z "${KAFKA_BROKERS:-}${TEST_KAFKA_BROKERS:-}" ] && ! grep -q 'librdkafka\.so\.1 ' <<<"$libs"; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing librdkafka1 (embedded Kafka broker) with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librdkafka1 >/dev/null
  else
    echo "librdkafka1 is missing. Install it (sudo apt-get install -y librdkafka1) or set KAFKA_BROKERS to a real Kafka cluster." >&2
    exit 1
  fi
fi

stamp=node_modules/.platform-install-stamp
want=$( (cat package.json package-lock.json; node --version) | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> installing npm dependencies"
  # `npm install` honours package-lock.json. Not `npm ci`: the lockfile made against this registry
  # lacks other platforms' optional binaries, which `npm ci` rejects as out of sync.
  npm install --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
