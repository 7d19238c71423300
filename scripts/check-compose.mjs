// Checks what the compose file and the images promise an operator, on files (no Docker needed):
//   - `docker compose up` starts a service only once what it depends on is healthy: every `depends_on`
//     entry has `condition: service_healthy` (a list, or `service_started`, only waits for a start), and
//     each dependency has a health check, its own in the compose file or its image's HEALTHCHECK;
//   - every Dockerfile installs with `npm ci` (exactly the lockfile), never `npm install`;
//   - the minimum Kubernetes version the manifests need is stated where operators read it.
// Usage: node scripts/check-compose.mjs <rendered compose (docker-compose config)> <k8s manifests...>
// Exits 1 listing every problem.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** Fields of the manifests and the Kubernetes version from which they are on by default. */
const NEEDS = [
  ['matchLabelKeys', '1.27'], // topologySpreadConstraints.matchLabelKeys: beta, on by default in 1.27
  ['unhealthyPodEvictionPolicy', '1.27'], // PodDisruptionBudget: beta, on by default in 1.27
];
/** Where the minimum is stated for operators. */
const STATED_IN = ['README.md', 'docs/runbooks/deploy.md'];

const [composeFile, ...manifests] = process.argv.slice(2);
const problems = [];

const compose = parse(readFileSync(composeFile, 'utf8'));
const services = compose.services ?? {};
const dockerfileOf = (svc) => {
  const build = svc?.build;
  if (!build) return undefined;
  const context = typeof build === 'string' ? build : (build.context ?? '.');
  return join(context, typeof build === 'string' ? 'Dockerfile' : (build.dockerfile ?? 'Dockerfile'));
};
const hasHealthcheck = (name) => {
  const svc = services[name];
  if (!svc) return false;
  if (svc.healthcheck && !svc.healthcheck.disable) return true;
  const file = dockerfileOf(svc);
  return !!file && existsSync(file) && /^HEALTHCHECK\s+(?!NONE)/m.test(readFileSync(file, 'utf8'));
};
for (const [name, svc] of Object.entries(services)) {
  const deps = svc.depends_on;
  if (!deps) continue;
  const entries = Array.isArray(deps) ? deps.map((d) => [d, {}]) : Object.entries(deps);
  for (const [dep, opts] of entries) {
    if (opts?.condition !== 'service_healthy')
      problems.push(`${name} depends on ${dep} without condition: service_healthy`);
    if (!hasHealthcheck(dep)) problems.push(`${name} waits for ${dep}, which has no health check`);
  }
}

for (const dir of readdirSync('docker', { withFileTypes: true })) {
  const file = join('docker', dir.name, 'Dockerfile');
  if (!dir.isDirectory() || !existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  if (/^RUN\b.*\bnpm (install|i)\b/m.test(text))
    problems.push(`${file} installs with npm install, not npm ci`);
  if (!/^RUN\b.*\bnpm ci\b/m.test(text)) problems.push(`${file} does not install with npm ci`);
}

const text = manifests.map((f) => readFileSync(f, 'utf8')).join('\n');
parseAllDocuments(text); // a manifest that does not parse fails here, before its fields are read
const needed = NEEDS.filter(([field]) => text.includes(`${field}:`)).map(([, v]) => v);
const minimum = needed.sort((a, b) => Number(b.split('.')[1]) - Number(a.split('.')[1]))[0];
if (minimum)
  for (const doc of STATED_IN)
    if (!readFileSync(doc, 'utf8').includes(`Kubernetes ${minimum}+`))
      problems.push(`${doc} does not state the minimum version the manifests need: "Kubernetes ${minimum}+"`);

if (problems.length) {
  process.stderr.write(`compose, Dockerfiles, Kubernetes version:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write(
  `compose: every depends_on waits for a healthy service; Dockerfiles install with npm ci; Kubernetes ${minimum ?? '(any)'}+ stated in ${STATED_IN.join(', ')}\n`,
);
