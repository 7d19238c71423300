#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on a fresh machine: npm dependencies (when the lockfile
# changed since the last install), which include Node 24 itself, and Debian's librdkafka1, whose mock
# cluster is the embedded Kafka broker, python3-dateutil (the recurrence tests' oracle) and prometheus
# (its promtool checks the alerting rules). Nothing else is fetched. The machine's Node (20 will do)
# only runs the first install; once the pinned one is in node_modules/.bin, npm itself runs on it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

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

# libs/recurrence's unit tests check the engine against python-dateutil: Debian's python3-dateutil
# (it brings /usr/bin/python3). Only those tests (and the recurrence bench's cross-check) need it.
if ! /usr/bin/python3 -c 'import dateutil' 2>/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing python3-dateutil (the recurrence tests' oracle) with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dateutil >/dev/null
  else
    echo "python3-dateutil is missing: libs/recurrence's oracle test will fail (sudo apt-get install -y python3-dateutil)." >&2
  fi
fi

# scripts/check-manifests.sh runs `promtool check rules` on the generated PrometheusRule's alerts: Debian's
# prometheus package ships promtool (the server it also installs is not started here: no init system).
if ! command -v promtool >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing prometheus (promtool checks the alerting rules) with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    echo "promtool is missing: scripts/check-manifests.sh will fail (sudo apt-get install -y prometheus)." >&2
  fi
fi

# `npm test` also drives the API reference and the borrower portal in a real browser (Debian's chromium,
# headless), renders the verification summary PDF (poppler-utils' pdftoppm) and reads its QR code
# (zbar-tools' zbarimg).
if [ "${1:-}" = "--with-browser" ] && { [ ! -x /usr/bin/chromium ] || ! command -v pdftoppm >/dev/null || ! command -v zbarimg >/dev/null; }; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing chromium, poppler-utils and zbar-tools (browser, PDF and QR tests) with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils zbar-tools >/dev/null
  else
    echo "chromium, pdftoppm or zbarimg is missing. Install them (sudo apt-get install -y chromium poppler-utils zbar-tools): the browser and PDF tests need them." >&2
    exit 1
  fi
fi

stamp=node_modules/.platform-install-stamp
# The apps run on the `node` dev dependency (decision 0011): its package's install script fetches the
# pinned binary into node_modules/.bin, which npm scripts put first on PATH. So the stamp follows
# package.json and the lockfile, not the machine's Node, and a missing or different binary reinstalls.
deps_hash() { cat package.json package-lock.json | sha256sum | cut -d' ' -f1; }
pinned=v$(node -p 'require("./package.json").devDependencies.node')
pinned_node() { node_modules/.bin/node --version 2>/dev/null || true; }
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(deps_hash)" ] || [ "$(pinned_node)" != "$pinned" ]; then
  echo "==> installing npm dependencies"
  # `npm install` honours package-lock.json. Not `npm ci`: the lockfile made against this registry
  # lacks other platforms' optional binaries, which `npm ci` rejects as out of sync.
  npm install --no-audit --no-fund --loglevel=error
  if [ "$(pinned_node)" != "$pinned" ]; then
    echo "node_modules/.bin/node is '$(pinned_node)', not $pinned: npm did not run the \`node\` package's" \
      "install script (package.json's allowScripts must allow \`node\`)." >&2
    exit 1
  fi
  # Hashed after the install, which may have brought the lockfile in line with package.json.
  deps_hash > "$stamp"
fi
