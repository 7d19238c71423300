#!/usr/bin/env bash
# `npm test`: everything CI checks, in order, on real PostgreSQL and a real Kafka-protocol broker.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true CI="${CI:-false}"

bash scripts/ensure-deps.sh

started=$(date +%s)
step() { echo; echo "==> $1 ($(( $(date +%s) - started ))s)"; }
results=tmp/test-results
mkdir -p "$results"

step "format (prettier)"
npx prettier --check . --log-level warn

step "lint (nx, every project, zero warnings)"
npx nx run-many -t lint --outputStyle=static
npx eslint --max-warnings=0 scripts bench eslint.config.mjs

step "module boundaries bite"
bash scripts/check-boundaries.sh

step "type-check (strict)"
npx tsc -p scripts/tsconfig.typecheck.json

step "unit tests"
npx jest -c scripts/jest/unit.config.js --ci --json --outputFile="$results/unit.json"

step "build"
npm run build --silent

step "integration and e2e tests (embedded PostgreSQL, librdkafka mock broker)"
npx jest -c scripts/jest/int.config.js --ci --json --outputFile="$results/integration.json"

step "deployment manifests"
bash scripts/check-manifests.sh

node -e '
  const r = ["unit", "integration"].map((n) => require("./'"$results"'/" + n + ".json"));
  const passed = r.reduce((a, x) => a + x.numPassedTests, 0);
  const failed = r.reduce((a, x) => a + x.numFailedTests, 0);
  const pending = r.reduce((a, x) => a + x.numPendingTests + x.numTodoTests, 0);
  console.log("\ntests: " + passed + " passed, " + failed + " failed" + (pending ? ", " + pending + " skipped" : ""));
  process.exit(failed || pending ? 1 : 0);
'
echo "all checks passed in $(( $(date +%s) - started ))s"
