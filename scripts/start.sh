#!/usr/bin/env bash
# `npm start`: install what is missing, build, then start PostgreSQL, the Kafka-protocol broker and the
# six apps (scripts/start.ts). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false
bash scripts/ensure-deps.sh
echo "==> building"
npm run build --silent
exec node -r ./dist/scripts/register-paths.js dist/scripts/start.js
