#!/usr/bin/env bash
# `npm run bench`: builds and runs every benchmark in bench/, each printing its figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build --silent
for b in dist/bench/*.bench.js; do
  echo "==> $(basename "$b" .bench.js)"
  node -r ./dist/scripts/register-paths.js "$b"
done
