#!/usr/bin/env bash
# Generates a TypeScript client from each English API reference (docs/openapi/<service>.en.json) with
# openapi-typescript, as an SDK user would, and type-checks scripts/api-clients/calls.mts, one typed
# call per service through openapi-fetch: a reference that generators read wrong fails here. (.mts keeps
# it out of the build and the repository's type-check, which do not generate the clients.)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=tmp/api-clients
rm -rf "$out"
mkdir -p "$out"
shopt -s nullglob
docs=(docs/openapi/*.en.json)
if [ ${#docs[@]} -eq 0 ]; then echo "no English API reference in docs/openapi" >&2; exit 1; fi
for doc in "${docs[@]}"; do
  service=$(basename "$doc" .en.json)
  npx openapi-typescript "$doc" --output "$out/$service.ts" >/dev/null
done
npx tsc -p scripts/api-clients/tsconfig.json
echo "API clients: ${#docs[@]} generated (openapi-typescript), a typed call through each type-checks (openapi-fetch)"
