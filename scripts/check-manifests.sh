#!/usr/bin/env bash
# Checks the deployment files against the service registry (libs/registry, scripts/gen-deploy.ts) and
# renders them offline: the kustomize dev overlay and the compose file. Installs Debian's docker-compose
# (v1, config only; no engine needed) when missing and allowed.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run --silent gen:deploy -- --check
echo "Dockerfiles, compose app services, k8s manifests: in sync with libs/registry"
apps=$(npm run --silent gen:deploy -- --list | wc -l)

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

if ! command -v kubectl >/dev/null; then
  echo "kubectl is missing: it renders k8s/overlays/dev offline (kubectl kustomize)" >&2
  exit 1
fi
rendered=$(kubectl kustomize k8s/overlays/dev)
deployments=$(grep -c '^kind: Deployment' <<<"$rendered")
probes=$(grep -c 'readinessProbe:' <<<"$rendered")
if [ "$deployments" -ne "$apps" ] || [ "$probes" -ne "$apps" ]; then
  echo "kustomize: expected $apps deployments with readiness probes (one per registered app), got $deployments/$probes" >&2
  exit 1
fi
echo "kubectl kustomize k8s/overlays/dev: ok ($deployments deployments)"
