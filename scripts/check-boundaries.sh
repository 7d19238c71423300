#!/usr/bin/env bash
# Proves that the rules bite: plants forbidden imports, expects `nx lint` / eslint to fail on each with
# @nx/enforce-module-boundaries; plants a fourth way to the database and expects the data-access lint
# rule to fail; plants an import of lending's applications/ in loans/ and expects the layer rule to
# fail; plants a setInterval and a polling loop and expects the periodic-work rule to fail; plants a
# route without scopes and expects the route audit to fail; plants raw SQL in a repository and an
# unscoped repository without its reason and expects the tenant door checks to fail. Removes the
# probes whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false

probes=(
  "apps/gateway/src/boundary-probe.ts|import { CalendarAppModule } from '../../calendar/src/app.module';|an app importing another app"
  "libs/envelope/src/boundary-probe.ts|import { LendingAppModule } from '../../../apps/lending/src/app.module';|a lib importing an app"
  "libs/messaging/src/boundary-probe.ts|import { loadConfig } from '@platform/config';|contracts importing anything"
  "libs/i18n/src/boundary-probe.ts|import { PersistenceModule } from '@platform/persistence';|a util lib importing a data-access lib"
)

audit_module=apps/lending/src/app.module.ts
audit_probe=apps/lending/src/applications/audit-probe.controller.ts
cleanup() {
  for p in "${probes[@]}"; do rm -f "${p%%|*}"; done
  rm -f apps/lending/src/applications/data-probe.controller.ts apps/lending/src/applications/data-probe.service.ts
  rm -f apps/lending/src/loans/layer-probe.ts apps/lending/src/loans/layer-probe.entity.ts
  rm -f apps/public-status/src/periodic-probe.ts libs/webhooks/src/periodic-probe.ts
  rm -f apps/calendar/src/grants/door-probe.repository.ts apps/calendar/src/grants/door-probe.unscoped.repository.ts
  rm -f "$audit_probe"
  if [ -f "$audit_module.probe-backup" ]; then mv "$audit_module.probe-backup" "$audit_module"; fi
}
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

# One way to the database: a controller injecting the DataSource, a service running SQL on its tx.
expect_lint_failure() {
  local file=$1 rule=$2 what=$3 check=${4:-data-access check}
  out=$(npx eslint --max-warnings=0 "$file" 2>&1)
  status=$?
  rm -f "$file"
  if [ $status -ne 0 ] && grep -q "$rule" <<<"$out"; then
    echo "$check: lint rejects $what (ok)"
  else
    echo "$check: lint ACCEPTED $what ($file)" >&2
    echo "$out" | tail -20 >&2
    failed=1
  fi
}
cat > apps/lending/src/applications/data-probe.controller.ts <<'TS'
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export class DataProbeController {
  constructor(@InjectDataSource() readonly ds: DataSource) {}
}
TS
expect_lint_failure apps/lending/src/applications/data-probe.controller.ts no-restricted-imports \
  "a controller injecting the DataSource"
cat > apps/lending/src/applications/data-probe.service.ts <<'TS'
export async function probe(tx: { query(sql: string): Promise<unknown> }): Promise<void> {
  await tx.query('SELECT 1');
}
TS
expect_lint_failure apps/lending/src/applications/data-probe.service.ts no-restricted-syntax \
  "a service running SQL on a handle it was given"
cat > apps/lending/src/applications/data-probe.service.ts <<'TS'
import { txManager, type Tx } from '@platform/persistence';

export const probe = (tx: Tx) => txManager(tx).find('applications');
TS
expect_lint_failure apps/lending/src/applications/data-probe.service.ts no-restricted-imports \
  "a service opening its transaction handle"

# The tenant door (decision 0032): a repository of a tenant app that runs SQL on its DataSource or
# opens its transaction handle fails the door rule, and every deliberate exception, named
# *.unscoped.repository.ts, opens with its one-line reason (a planted one without fails the check).
cat > apps/calendar/src/grants/door-probe.repository.ts <<'TS'
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';

export class DoorProbeRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}
  every(): Promise<unknown> {
    return this.ds.query('SELECT * FROM events');
  }
  everyIn(tx: Tx): Promise<unknown> {
    return txManager(tx).query('SELECT * FROM events');
  }
}
TS
out=$(npx eslint --max-warnings=0 apps/calendar/src/grants/door-probe.repository.ts 2>&1)
status=$?
rm -f apps/calendar/src/grants/door-probe.repository.ts
if [ $status -ne 0 ] && [ "$(grep -c 'A repository over tenant rows extends TenantScopedRepository' <<<"$out")" -ge 3 ]; then
  echo "tenant door check: lint rejects a repository's raw DataSource query, txManager and its import (ok)"
else
  echo "tenant door check: lint ACCEPTED a repository's raw SQL outside the tenant door" >&2
  echo "$out" | tail -20 >&2
  failed=1
fi
without_reason() {
  for f in $(git ls-files -co --exclude-standard -- 'apps/*.unscoped.repository.ts' 'libs/*.unscoped.repository.ts'); do
    head -1 "$f" | grep -qE '^// Unscoped: .{20,}' || echo "$f"
  done
}
printf "import { Injectable } from '@nestjs/common';\n\n@Injectable()\nexport class DoorProbe {}\n" \
  > apps/calendar/src/grants/door-probe.unscoped.repository.ts
planted=$(without_reason)
rm -f apps/calendar/src/grants/door-probe.unscoped.repository.ts
missing=$(without_reason)
if grep -q door-probe.unscoped <<<"$planted" && [ -z "$missing" ]; then
  echo "tenant door check: every *.unscoped.repository.ts opens with its reason, a planted one without is found (ok)"
else
  echo "tenant door check: *.unscoped.repository.ts without a one-line reason: ${missing:-none found, not even the planted one}" >&2
  failed=1
fi

# Feature layers: lending's loans/ imports nothing of applications/ (origination/ joins them), in a
# service and in an entity alike (the entity block of the lint config is a separate one).
for probe in apps/lending/src/loans/layer-probe.ts apps/lending/src/loans/layer-probe.entity.ts; do
  printf "import { ApplicationTexts } from '../applications/application-texts';\nexport const probe = ApplicationTexts;\n" > "$probe"
  out=$(npx eslint --max-warnings=0 "$probe" 2>&1)
  status=$?
  rm -f "$probe"
  if [ $status -ne 0 ] && grep -q "loans/ imports nothing of applications/" <<<"$out"; then
    echo "layer check: lint rejects loans/ importing applications/ ($(basename "$probe")) (ok)"
  else
    echo "layer check: lint ACCEPTED loans/ importing applications/ ($probe)" >&2
    echo "$out" | tail -20 >&2
    failed=1
  fi
done

# One way to repeat work (libs/scheduling): a setInterval in an app and a polling loop in a lib, the two
# hand-written styles it replaced, each fail the periodic-work rule.
cat > apps/public-status/src/periodic-probe.ts <<'TS'
export class PeriodicProbe {
  private timer?: NodeJS.Timeout;
  start(tick: () => Promise<void>): void {
    this.timer = setInterval(() => void tick(), 1000);
  }
}
TS
expect_lint_failure apps/public-status/src/periodic-probe.ts platform/one-periodic-mechanism \
  "a hand-written setInterval" "periodic-work check"
cat > libs/webhooks/src/periodic-probe.ts <<'TS'
export class PeriodicProbe {
  private running = true;
  async run(round: () => Promise<void>): Promise<void> {
    while (this.running) {
      await round();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
TS
expect_lint_failure libs/webhooks/src/periodic-probe.ts platform/one-periodic-mechanism \
  "a hand-written polling loop" "periodic-work check"

# Deny by default: an authenticated route without scopes fails the app's route audit.
cp "$audit_module" "$audit_module.probe-backup"
cat > "$audit_probe" <<'TS'
import { Controller, Get } from '@nestjs/common';
import { LendingAccess } from '../tenancy/scopes';

@Controller('Applications')
export class AuditProbeController {
  @Get('Probe')
  @LendingAccess.Authenticated('partner-key')
  probe(): string {
    return 'open to any key of the organization';
  }
}
TS
sed -i "1i import { AuditProbeController } from './applications/audit-probe.controller';" "$audit_module"
sed -i -E 's/controllers: \[([^]]*)\]/controllers: [\1, AuditProbeController]/; s/\[, AuditProbeController\]/[AuditProbeController]/' "$audit_module"
# The plant must have landed, or this check proves nothing.
grep -q 'AuditProbeController]' "$audit_module" || {
  mv "$audit_module.probe-backup" "$audit_module"
  rm -f "$audit_probe"
  echo "route audit: could not plant the probe in $audit_module" >&2
  exit 1
}
out=$(npx jest -c scripts/jest/unit.config.js apps/lending/src/app.routes.spec.ts 2>&1)
status=$?
mv "$audit_module.probe-backup" "$audit_module"
rm -f "$audit_probe"
if [ $status -ne 0 ] && grep -q "authenticated without RequireScopes" <<<"$out"; then
  echo "route audit: rejects an authenticated route without scopes (ok)"
else
  echo "route audit: ACCEPTED an authenticated route without scopes" >&2
  echo "$out" | tail -30 >&2
  failed=1
fi
exit $failed
