#!/usr/bin/env bash
# `npm test`: everything CI checks, in order, on real PostgreSQL and a real Kafka-protocol broker.
#
# Full run on main, with CI_FULL=1, and whenever a change reaches shared ground. On a branch whose
# changes stay inside apps/ (plus Markdown), lint and jest run only for the projects Nx reports affected
# against the merge base with $NX_BASE (else origin/main, else main), plus the e2e suite, which drives
# every app. TEST_PLAN_ONLY=1 prints the plan and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true CI="${CI:-false}"
# Node 24 from the pinned `node` dev dependency (decision 0011), also when run as `bash scripts/test.sh`.
export PATH="$PWD/node_modules/.bin:$PATH"
# Jest loads the ES-module packages (Nest 12, jose 6) through require(esm), which needs Node's VM modules
# (scripts/jest/preset.js, decision 0040); the warning that they are experimental would print per worker.
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--experimental-vm-modules --disable-warning=ExperimentalWarning"

bash scripts/ensure-deps.sh --with-browser
bash scripts/ensure-python-caldav.sh # python3-caldav: the CalDAV interop test's second client
bash scripts/ensure-python-icalendar.sh # python3-icalendar: the ICS feed test's second parser
echo "==> node $(node --version)"

started=$(date +%s)
step() { echo; echo "==> $1 ($(( $(date +%s) - started ))s)"; }
results=tmp/test-results
mkdir -p "$results"
# A step skipped in affected mode must not be summarised from an earlier run's report.
rm -f "$results"/*.json

# --- plan: full, or the affected projects -------------------------------------------------------------
mode=full
reason=
projects=
roots=

# Paths an app-only change may touch; anything else is shared (root config, scripts/, libs/, docs the
# tests read such as docs/routes, docker/, k8s/, bench/) or unknown, and in doubt the run is full.
# libs/ is shared on purpose: Nx sees imports, not the runtime couplings (contracts over Kafka, the
# built apps the e2e suite starts, the test harness).
app_only='^apps/[^/]+/|\.md$'

plan() {
  if [ "${CI_FULL:-}" = "1" ]; then reason="CI_FULL=1"; return 0; fi
  local branch base_ref='' cand merge_base changed shared project_list
  branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null || true)
  if [ "$branch" = "main" ]; then reason="on main"; return 0; fi
  for cand in "${NX_BASE:-}" origin/main main; do
    if [ -n "$cand" ] && git rev-parse --verify --quiet "$cand^{commit}" >/dev/null 2>&1; then
      base_ref=$cand
      break
    fi
  done
  if [ -z "$base_ref" ]; then reason="no base ref to compare with (NX_BASE, origin/main, main)"; return 0; fi
  if ! merge_base=$(git merge-base HEAD "$base_ref" 2>/dev/null); then
    reason="no merge base between HEAD and $base_ref"
    return 0
  fi
  # What Nx compares with --base alone: commits since the merge base, uncommitted and untracked files.
  changed=$({ git diff --name-only --no-renames "$merge_base"; git ls-files --others --exclude-standard; } | sort -u)
  if [ -z "$changed" ]; then
    # e.g. CI on a detached checkout of main's own commit: nothing to narrow down to.
    reason="no change against $base_ref"
    return 0
  fi
  shared=$(grep -Ev "$app_only" <<<"$changed" || true)
  if [ -n "$shared" ]; then
    reason="shared files changed: $(head -n 3 <<<"$shared" | paste -sd' ')"
    if [ "$(wc -l <<<"$shared")" -gt 3 ]; then reason+=" (+$(( $(wc -l <<<"$shared") - 3 )) more)"; fi
    return 0
  fi
  # No --head: like Nx's default, uncommitted work counts, so a local run tests what is on disk.
  if ! projects=$(npx nx show projects --affected --base="$merge_base" 2>/dev/null | sort); then
    reason="nx could not compute the affected projects"
    projects=
    return 0
  fi
  mapfile -t project_list <<<"$projects"
  # shellcheck disable=SC2016 # JavaScript template literals, not shell expansions
  if [ -n "$projects" ] && ! roots=$(node -e '
    const fs = require("fs");
    const path = require("path");
    const roots = new Map();
    for (const dir of ["apps", "libs"])
      for (const d of fs.readdirSync(dir)) {
        const f = path.join(dir, d, "project.json");
        if (fs.existsSync(f)) roots.set(JSON.parse(fs.readFileSync(f, "utf8")).name, `${dir}/${d}/`);
      }
    for (const name of process.argv.slice(1)) {
      if (!roots.has(name)) { console.error(`no folder for project ${name}`); process.exit(1); }
      console.log(roots.get(name));
    }' "${project_list[@]}"); then
    reason="an affected project has no project.json folder"
    projects=
    return 0
  fi
  mode=affected
  reason="$(wc -l <<<"$changed" | tr -d ' ') file(s) changed against $base_ref (merge base ${merge_base:0:10}), all inside apps/ or Markdown"
}
plan
plan_line="mode: $mode ($reason)"
echo "==> $plan_line"
if [ "$mode" = affected ]; then
  echo "    affected projects: $(paste -sd' ' <<<"${projects:-none}")"
  # The e2e suite starts every built app and calls them through the gateway: any affected app is in it.
  if [ -n "$roots" ]; then roots+=$'\n'"apps/gateway/test/e2e/"; fi
  echo "    jest roots: $(paste -sd' ' <<<"${roots:-none}")"
fi
if [ "${TEST_PLAN_ONLY:-}" = "1" ]; then exit 0; fi
mapfile -t jest_roots <<<"$roots"

step "format (prettier)"
npx prettier --check . --log-level warn

if [ "$mode" = full ]; then
  step "lint (nx, every project, zero warnings)"
  npx nx run-many -t lint --outputStyle=static
  npx eslint --max-warnings=0 scripts bench eslint.config.mjs
elif [ -n "$projects" ]; then
  step "lint (nx, affected projects, zero warnings)"
  npx nx run-many -t lint --projects="$(paste -sd, <<<"$projects")" --outputStyle=static
fi

step "module boundaries bite"
bash scripts/check-boundaries.sh

step "API reference (redocly, spectral)"
bash scripts/lint-api-docs.sh

step "API clients generated from the reference type-check (openapi-typescript, openapi-fetch)"
bash scripts/check-api-clients.sh

step "type-check (strict)"
npx tsc -p scripts/tsconfig.typecheck.json

if [ "$mode" = full ]; then
  step "unit tests"
  npx jest -c scripts/jest/unit.config.js --ci --json --outputFile="$results/unit.json"
elif [ -n "$projects" ]; then
  step "unit tests (affected projects)"
  npx jest -c scripts/jest/unit.config.js --ci --json --outputFile="$results/unit.json" --passWithNoTests \
    "${jest_roots[@]}"
fi

step "build"
npm run build --silent

if [ "$mode" = full ]; then
  step "integration and e2e tests (embedded PostgreSQL, librdkafka mock broker)"
  npx jest -c scripts/jest/int.config.js --ci --json --outputFile="$results/integration.json"
elif [ -n "$projects" ]; then
  step "integration and e2e tests (affected projects + e2e; embedded PostgreSQL, librdkafka mock broker)"
  npx jest -c scripts/jest/int.config.js --ci --json --outputFile="$results/integration.json" --passWithNoTests \
    "${jest_roots[@]}"
fi

step "deployment manifests"
bash scripts/check-manifests.sh

# shellcheck disable=SC2016 # JavaScript template literals, not shell expansions
node -e '
  const fs = require("fs");
  const [dir, mode] = process.argv.slice(1);
  const r = ["unit", "integration"].map((n) => `${dir}/${n}.json`).filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  // A full run that produced no report is a broken run, not an empty one.
  if (mode === "full" && r.length !== 2) { console.error("missing jest reports"); process.exit(1); }
  const passed = r.reduce((a, x) => a + x.numPassedTests, 0);
  const failed = r.reduce((a, x) => a + x.numFailedTests, 0);
  const pending = r.reduce((a, x) => a + x.numPendingTests + x.numTodoTests, 0);
  console.log("\ntests: " + passed + " passed, " + failed + " failed" + (pending ? ", " + pending + " skipped" : ""));
  process.exit(failed || pending ? 1 : 0);
' "$results" "$mode"
echo "all checks passed in $(( $(date +%s) - started ))s ($plan_line)"
