#!/usr/bin/env bash
# Proves that the module-boundary rules bite: plants forbidden imports, expects `nx lint` / eslint to
# fail on each with @nx/enforce-module-boundaries, and removes the probes whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false

probes=(
  "apps/gateway/src/boundary-probe.ts|import { CalendarAppModule } from '../../calendar/src/app.module';|an app importing another app"
  "libs/envelope/src/boundary-probe.ts|import { LendingAppModule } from '../../../apps/lending/src/app.module';|a lib importing an app"
  "libs/messaging/src/boundary-probe.ts|import { loadConfig } from '@platform/config';|contracts importing anything"
  "libs/i18n/src/boundary-probe.ts|import { PersistenceModule } from '@platform/persistence';|a util lib importing a data-access lib"
)

cleanup() { for p in "${probes[@]}"; do rm -f "${p%%|*}"; done; }
trap cleanup EXIT

failed=0
for p in "${probes[@]}"; do
  file="${p%%|*}"; rest="${p#*|}"; import="${rest%%|*}"; what="${rest#*|}"
  symbol=$(sed -E 's/import \{ ([A-Za-z]+) \}.*/\1/' <<<"$import")
  printf '%s\nexport const probe = %s;\n' "$import" "$symbol" > "$file"
  project=$(cut -d/ -f2 <<<"$file")
  if [ "$file" = "apps/gateway/src/boundary-probe.ts" ]; then
    out=$(npx nx run "$project:lint" --skipNxCache --outputStyle=static 2>&1)
  else
    out=$(npx eslint --max-warnings=0 "$file" 2>&1)
  fi
  status=$?
  rm -f "$file"
  if [ $status -ne 0 ] && grep -q "enforce-module-boundaries" <<<"$out"; then
    echo "boundary check: lint rejects $what (ok)"
  else
    echo "boundary check: lint ACCEPTED $what ($file)" >&2
    echo "$out" | tail -20 >&2
    failed=1
  fi
done
exit $failed
