#!/usr/bin/env bash
# `npm start`: install what is missing, build, then start PostgreSQL, the Kafka-protocol broker and the
# six apps (scripts/start.ts). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false
# The apps run on the pinned `node` dev dependency (decision 0011), also when started as
# `bash scripts/start.sh`: start.js spawns each app with its own process.execPath.
export PATH="$PWD/node_modules/.bin:$PATH"
bash scripts/ensure-deps.sh
echo "==> node $(node --version)"
echo "==> building"
npm run build --silent
exec node -r ./dist/scripts/register-paths.js dist/scripts/start.js
