#!/usr/bin/env bash
# Checks the deployment files against the service registry (libs/registry, scripts/gen-deploy.ts) and
# renders them offline: both kustomize overlays (dev, production) and the compose file. Every rendered
# object is checked against the Kubernetes schemas (scripts/validate-k8s.mjs: kubernetes-models, and
# k8s/schemas for the custom resources) and the workload policy (scripts/check-k8s-policy.mjs), and
# violations are planted to prove that both checks bite (docs/decisions/0028). The PrometheusRule's
# alerts go through `promtool check rules` and their unit tests (`promtool test rules
# scripts/prometheus-rules.test.yaml`). No cluster is needed.
# Installs Debian's docker-compose (v1, config only; no engine needed) when missing and allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node 24 from the pinned `node` dev dependency (decision 0011), also when run as `bash scripts/...`.
export PATH="$PWD/node_modules/.bin:$PATH"

npm run --silent gen:deploy -- --check
echo "Dockerfiles, compose app services, k8s manifests: in sync with libs/registry"
apps=$(npm run --silent gen:deploy -- --list | wc -l)

# Every secret key the production overlay requires (its generated region) has its rotation in the runbook.
runbook=docs/runbooks/rotate-keys-and-secrets.md
keys=$(sed -n '/# >>> generated: required secrets/,/# <<< generated: required secrets/s/^# - //p' \
  k8s/overlays/production/kustomization.yaml)
[ -n "$keys" ] || { echo "k8s/overlays/production/kustomization.yaml lists no required secrets" >&2; exit 1; }
for key in $keys; do
  case "$key" in
    *_DATABASE_URL) pattern='`<APP>_DATABASE_URL`' ;;
    *) pattern="\`$key\`" ;;
  esac
  grep -qF -- "$pattern" "$runbook" || { echo "$runbook does not say how to rotate $key" >&2; exit 1; }
done
echo "$runbook: covers the $(wc -w <<<"$keys") keys the production overlay requires"

if ! command -v docker-compose >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing docker-compose (Debian) to validate docker/docker-compose.yml"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
  else
    echo "docker-compose is missing: install Debian's docker-compose to validate the compose file" >&2
    exit 1
  fi
fi
docker-compose -f docker/docker-compose.yml config -q
echo "docker-compose config: ok"
mkdir -p tmp
docker-compose -f docker/docker-compose.yml config >tmp/compose.rendered.yml
node scripts/check-compose.mjs tmp/compose.rendered.yml k8s/base/*/*.yaml
# `npm ci` (the images' install) accepts the lockfile as it is: in sync with package.json.
ci_check=$(mktemp -d)
cp package.json package-lock.json "$ci_check/"
(cd "$ci_check" && npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
rm -rf "$ci_check"
echo "npm ci --dry-run: the lockfile installs as it is"

# The images' software bill of materials, without Docker: the build stage's prune and `npm run sbom`
# replayed on a hard-linked copy of node_modules (the repository's own stays untouched), then checked.
for dockerfile in docker/*/Dockerfile; do
  grep -q 'npm run sbom' "$dockerfile" || { echo "$dockerfile does not write the SBOM" >&2; exit 1; }
done
image=tmp/sbom-image
rm -rf "$image"
mkdir -p "$image"
cp package.json package-lock.json "$image/"
cp -al node_modules "$image/node_modules"
# npm rewrites its hidden lockfile in place: that one file must not stay a link to the repository's.
rm -f "$image/node_modules/.package-lock.json"
(
  cd "$image"
  npm prune --omit=dev --no-audit --no-fund --loglevel=error >/dev/null
  rm -rf node_modules/typescript node_modules/ts-node
  npm run --silent sbom
)
node scripts/check-sbom.mjs "$image/dist/sbom.cdx.json"
# It bites: the same SBOM without @nestjs/core is refused, naming it.
node -e '
  const fs = require("fs"), [from, to] = process.argv.slice(1), bom = JSON.parse(fs.readFileSync(from, "utf8"));
  const drop = (cs) => (cs ?? []).filter((c) => c.purl?.split("@")[0] !== "pkg:npm/%40nestjs/core")
    .map((c) => ({ ...c, components: drop(c.components) }));
  bom.components = drop(bom.components);
  fs.writeFileSync(to, JSON.stringify(bom));' "$image/dist/sbom.cdx.json" "$image/planted.cdx.json"
if refusal=$(node scripts/check-sbom.mjs "$image/planted.cdx.json" 2>&1) || ! grep -qF '@nestjs/core@' <<<"$refusal"; then
  echo "scripts/check-sbom.mjs accepted an SBOM without @nestjs/core: $refusal" >&2
  exit 1
fi
echo "  planted and refused: an SBOM without @nestjs/core"
rm -rf "$image"

if ! command -v kubectl >/dev/null; then
  echo "kubectl is missing: it renders k8s/overlays offline (kubectl kustomize)" >&2
  exit 1
fi
out=tmp/k8s
rm -rf "$out"
mkdir -p "$out"
for overlay in dev production; do
  kubectl kustomize "k8s/overlays/$overlay" >"$out/$overlay.yaml"
  deployments=$(grep -c '^kind: Deployment' "$out/$overlay.yaml")
  probes=$(grep -c 'readinessProbe:' "$out/$overlay.yaml")
  if [ "$deployments" -ne "$apps" ] || [ "$probes" -ne "$apps" ]; then
    echo "kustomize $overlay: expected $apps deployments with readiness probes (one per registered app), got $deployments/$probes" >&2
    exit 1
  fi
  echo "kubectl kustomize k8s/overlays/$overlay: ok ($deployments deployments)"
done

# Every object of both overlays and of the examples against its schema; every workload against the policy.
node scripts/validate-k8s.mjs "$out/dev.yaml" "$out/production.yaml" k8s/examples/*.yaml
node scripts/check-k8s-policy.mjs "$out/dev.yaml" "$out/production.yaml"

# The alerting rules as Prometheus will load them: the PrometheusRule's groups extracted into a rule
# file for promtool, which parses every expression and template. The overlays differ in one thing: the
# namespace the alerts on cluster-wide series filter on, which must be the overlay's own (kustomize
# replacements over the placeholder of scripts/deploy/k8s-monitoring.ts).
if ! command -v promtool >/dev/null; then
  echo "promtool is missing: it checks the alerting rules (scripts/ensure-deps.sh installs Debian's prometheus)" >&2
  exit 1
fi
prometheus_rules() { # rendered.yaml rules.yaml
  node --input-type=module -e '
    import { readFileSync, writeFileSync } from "node:fs";
    import { parseAllDocuments, stringify } from "yaml";
    const [from, to] = process.argv.slice(1);
    const rules = parseAllDocuments(readFileSync(from, "utf8")).map((d) => d.toJS())
      .filter((o) => o?.kind === "PrometheusRule");
    if (!rules.length) { console.error(`${from}: no PrometheusRule`); process.exit(1); }
    const wrong = rules.flatMap((r) => r.spec.groups.flatMap((g) => g.rules.flatMap((a) =>
      [...String(a.expr).matchAll(/\bnamespace\s*(=~|!=|!~|=)\s*"([^"]*)"/g)]
        .filter(([, op, ns]) => op !== "=" || ns !== r.metadata.namespace)
        .map(([m]) => `${a.alert ?? a.record}: ${m} (the rule is in namespace ${r.metadata.namespace})`))));
    if (wrong.length) {
      console.error(`${from}: alerts filter on another namespace than their own:\n  ${wrong.join("\n  ")}`);
      process.exit(1);
    }
    writeFileSync(to, stringify({ groups: rules.flatMap((r) => r.spec.groups) }));
  ' "$1" "$2"
}
for overlay in dev production; do
  prometheus_rules "$out/$overlay.yaml" "$out/$overlay.rules.yaml"
  promtool check rules "$out/$overlay.rules.yaml"
done
# The rules' behaviour on modelled series (the dev overlay's render, which the test file names): the
# first dead webhook delivery of a pod fires, pods and targets of another namespace do not.
promtool test rules scripts/prometheus-rules.test.yaml

# Each check bites: the dev overlay's render with one violation planted (a JSON patch applied by
# kustomize, offline, or a hand-written document added), and the check must fail naming it.
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
expect_refusal() { # check expected
  local result status
  kubectl kustomize "$planted" >"$planted/planted.yaml"
  set +e
  result=$(node "scripts/$1" "$planted/planted.yaml" 2>&1)
  status=$?
  set -e
  if [ "$status" -eq 1 ] && grep -qF -- "$2" <<<"$result"; then
    echo "  planted and refused: $2"
  else
    echo "$1 accepted a planted violation (wanted: $2; exit $status):" >&2
    tail -20 <<<"$result" >&2
    exit 1
  fi
}
plant() { # check expected kind name json-patch-operations (on the dev render, or $render)
  cp "${render:-$out/dev.yaml}" "$planted/rendered.yaml"
  printf 'resources: [rendered.yaml]\npatches:\n  - target: {kind: %s, name: %s}\n    patch: |-\n%s\n' \
    "$3" "$4" "$(sed 's/^/      /' <<<"$5")" >"$planted/kustomization.yaml"
  expect_refusal "$1" "$2"
}
c=/spec/template/spec/containers/0
echo "policy check bites:"
plant check-k8s-policy.mjs 'Deployment/calendar: container calendar has no readinessProbe' Deployment calendar \
  "- {op: remove, path: $c/readinessProbe}"
plant check-k8s-policy.mjs 'Deployment/lending: container lending has no livenessProbe' Deployment lending \
  "- {op: remove, path: $c/livenessProbe}"
plant check-k8s-policy.mjs 'Deployment/verification: container verification has no memory limit' \
  Deployment verification "- {op: remove, path: $c/resources/limits}"
plant check-k8s-policy.mjs 'Deployment/gateway: container gateway may run as root' Deployment gateway \
  "- {op: replace, path: /spec/template/spec/securityContext/runAsNonRoot, value: false}"
plant check-k8s-policy.mjs 'Deployment/public-status: container public-status runs as root (runAsUser 0)' \
  Deployment public-status "- {op: add, path: $c/securityContext/runAsUser, value: 0}"
plant check-k8s-policy.mjs 'Deployment/outbox-relay: container outbox-relay has a writable root filesystem' \
  Deployment outbox-relay "- {op: remove, path: $c/securityContext/readOnlyRootFilesystem}"
plant check-k8s-policy.mjs 'Deployment/calendar: container calendar adds capabilities (NET_ADMIN)' Deployment calendar \
  "- {op: add, path: $c/securityContext/capabilities/add, value: [NET_ADMIN]}"
plant check-k8s-policy.mjs 'Deployment/verification: container verification is privileged' Deployment verification \
  "- {op: add, path: $c/securityContext/privileged, value: true}"
plant check-k8s-policy.mjs "Deployment/lending: mounts the host's /var/run (hostPath volume host-run)" Deployment lending \
  "- {op: add, path: /spec/template/spec/volumes/-, value: {name: host-run, hostPath: {path: /var/run}}}"
plant check-k8s-policy.mjs 'Deployment/public-status: container public-status binds host port 8080' \
  Deployment public-status "- {op: add, path: $c/ports/0/hostPort, value: 8080}"
for ns in hostNetwork hostPID hostIPC; do
  plant check-k8s-policy.mjs "Deployment/gateway: shares a host namespace ($ns)" Deployment gateway \
    "- {op: add, path: /spec/template/spec/$ns, value: true}"
done
plant check-k8s-policy.mjs 'Service/gateway: has externalIPs (203.0.113.10)' Service gateway \
  "- {op: add, path: /spec/externalIPs, value: [203.0.113.10]}"
# The production database's connections: an autoscaler raised without max_connections.
render="$out/production.yaml" plant check-k8s-policy.mjs 'Cluster/platform-db: max_connections' \
  HorizontalPodAutoscaler calendar "- {op: replace, path: /spec/maxReplicas, value: 20}"
# A Deployment written by hand, the way a tutorial shows one: nothing of the above.
cp "$out/dev.yaml" "$planted/rendered.yaml"
cat >"$planted/hand-written.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: hand-written
spec:
  replicas: 1
  selector:
    matchLabels: { app: hand-written }
  template:
    metadata:
      labels: { app: hand-written }
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports: [{ containerPort: 80 }]
EOF
printf 'resources: [rendered.yaml, hand-written.yaml]\n' >"$planted/kustomization.yaml"
for rule in 'container web has no readinessProbe' 'container web has no livenessProbe' \
  'container web has no memory limit' 'container web may run as root' 'no HorizontalPodAutoscaler' \
  'no PodDisruptionBudget'; do
  expect_refusal check-k8s-policy.mjs "Deployment/hand-written: $rule"
done
# A bare Pod the tutorial way: refused as a kind we never generate, and its container rules still apply.
cat >"$planted/hand-written.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: debug
spec:
  hostPID: true
  containers:
    - name: shell
      image: busybox:1.36
      command: [sleep, '3600']
      securityContext: { privileged: true, capabilities: { add: [SYS_ADMIN] } }
EOF
for rule in 'is a Pod (v1): the platform generates none' 'container shell has no readinessProbe' \
  'container shell has no memory limit' 'container shell may run as root' 'container shell is privileged' \
  'container shell adds capabilities (SYS_ADMIN)' 'shares a host namespace (hostPID)'; do
  expect_refusal check-k8s-policy.mjs "Pod/debug: $rule"
done
# Every other kind that runs pods, made from the calendar Deployment's own (compliant) pod template, and
# a kind that runs none: each refused by its kind alone, since nothing here generates one.
node --input-type=module -e '
  import { readFileSync, writeFileSync } from "node:fs";
  import { parseAllDocuments, stringify } from "yaml";
  const [from, to] = process.argv.slice(1);
  const d = parseAllDocuments(readFileSync(from, "utf8")).map((x) => x.toJS())
    .find((o) => o?.kind === "Deployment" && o.metadata.name === "calendar");
  const { selector, template } = d.spec;
  const meta = (kind) => ({ name: `copied-${kind.toLowerCase()}` });
  const once = { ...template, spec: { ...template.spec, restartPolicy: "Never" } };
  const docs = [
    { apiVersion: "v1", kind: "Pod", spec: template.spec },
    { apiVersion: "apps/v1", kind: "ReplicaSet", spec: { selector, template } },
    { apiVersion: "apps/v1", kind: "StatefulSet", spec: { serviceName: "calendar", selector, template } },
    { apiVersion: "apps/v1", kind: "DaemonSet", spec: { selector, template } },
    { apiVersion: "batch/v1", kind: "Job", spec: { template: once } },
    { apiVersion: "batch/v1", kind: "CronJob", spec: { schedule: "0 * * * *", jobTemplate: { spec: { template: once } } } },
    { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding",
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      subjects: [{ kind: "ServiceAccount", name: "default", namespace: "platform-dev" }] },
  ].map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, metadata: meta(o.kind), ...o }));
  writeFileSync(to, docs.map((o) => stringify(o)).join("---\n"));
' "$out/dev.yaml" "$planted/hand-written.yaml"
for kind in Pod ReplicaSet StatefulSet DaemonSet Job CronJob ClusterRoleBinding; do
  expect_refusal check-k8s-policy.mjs "$kind/copied-${kind,,}: is a $kind ("
done
echo "schema check bites:"
plant validate-k8s.mjs "Deployment/calendar: Object literal may only specify known properties, and '\"readinesProbe\"'" \
  Deployment calendar "- {op: move, from: $c/readinessProbe, path: $c/readinesProbe}"
plant validate-k8s.mjs 'Deployment/lending: data/spec/template/spec/terminationGracePeriodSeconds must be integer' \
  Deployment lending "- {op: replace, path: /spec/template/spec/terminationGracePeriodSeconds, value: soon}"
plant validate-k8s.mjs 'KafkaTopic/calendar.event.changed.v1: /spec/partitions must be >= 1' \
  KafkaTopic calendar.event.changed.v1 "- {op: replace, path: /spec/partitions, value: 0}"
plant validate-k8s.mjs 'KafkaTopic/platform.outbox.dead-lettered.v1: /spec/config must NOT have additional properties (retention.hours)' \
  KafkaTopic platform.outbox.dead-lettered.v1 "- {op: add, path: /spec/config/retention.hours, value: '720'}"
plant validate-k8s.mjs 'ServiceMonitor/platform: /spec/endpoints/0 must NOT have additional properties (bearerTokenFile)' \
  ServiceMonitor platform "- {op: add, path: /spec/endpoints/0/bearerTokenFile, value: /var/run/token}"
echo "promtool bites:"
sed 's/outbox_oldest_pending_seconds) > 60/outbox_oldest_pending_seconds) >/' "$out/dev.rules.yaml" >"$planted/broken.rules.yaml"
if promtool check rules "$planted/broken.rules.yaml" >"$planted/promtool.out" 2>&1; then
  echo "promtool accepted a broken alert expression" >&2
  exit 1
fi
grep -q 'PlatformOutboxLagging\|parse error' "$planted/promtool.out" || {
  echo "promtool refused the broken rule file without naming the problem:" >&2
  cat "$planted/promtool.out" >&2
  exit 1
}
echo "  planted and refused: a broken expression in PlatformOutboxLagging"
# An overlay without the namespace replacements (the placeholder stays) is refused before promtool.
sed 's/namespace="platform-dev"/namespace="set-by-overlay"/' "$out/dev.yaml" >"$planted/unscoped.yaml"
if prometheus_rules "$planted/unscoped.yaml" "$planted/unscoped.rules.yaml" 2>"$planted/unscoped.out" ||
  ! grep -qF 'PlatformPodNotReady: namespace="set-by-overlay"' "$planted/unscoped.out"; then
  echo "the rule extraction accepted an alert filtering on the namespace placeholder:" >&2
  cat "$planted/unscoped.out" >&2
  exit 1
fi
echo "  planted and refused: PlatformPodNotReady left on the namespace placeholder"
# The rules without the namespace filter fail the unit tests: another namespace's pods would alert.
mkdir -p "$planted/rules"
sed 's/namespace="platform-dev",//' "$out/dev.rules.yaml" >"$planted/rules/dev.rules.yaml"
sed 's#\.\./tmp/k8s/dev\.rules\.yaml#rules/dev.rules.yaml#' scripts/prometheus-rules.test.yaml \
  >"$planted/rules.test.yaml"
if promtool test rules "$planted/rules.test.yaml" >"$planted/promtool-test.out" 2>&1 ||
  ! grep -q 'alertname: PlatformPodNotReady' "$planted/promtool-test.out"; then
  echo "the rules' unit tests accepted PlatformPodNotReady without its namespace filter:" >&2
  cat "$planted/promtool-test.out" >&2
  exit 1
fi
echo "  planted and refused: PlatformPodNotReady without its namespace filter (promtool test rules)"
echo "k8s manifests: schemas and policy hold on both overlays, the alerting rules pass promtool, and every planted violation was refused"
