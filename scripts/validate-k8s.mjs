/**
 * `node scripts/validate-k8s.mjs <rendered.yaml>...`: checks every object of rendered manifests
 * (`kubectl kustomize` output) offline, with no cluster:
 *   1. built-in kinds against the Kubernetes OpenAPI schemas compiled into npm `kubernetes-models`
 *      (types, formats, required fields, enums);
 *   2. the same objects against its TypeScript types, which refuse fields the API does not have (the
 *      JSON schemas accept unknown fields, the API server would prune or reject them: a misspelt
 *      `readinesProbe` would silently deploy a pod without a readiness probe);
 *   3. custom resources (Strimzi, CloudNativePG) against the subsets in k8s/schemas (its README).
 * A kind with no schema fails. Exits 1 on any problem, listing them all. ESM: `kubernetes-models` is
 * published as ES modules only.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMAS = join(ROOT, 'k8s/schemas');

/** Every YAML document of the files, with where it came from. */
export function readObjects(files) {
  const objects = [];
  const problems = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (doc.errors.length) {
        problems.push(`${file}: YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
        continue;
      }
      const value = doc.toJS();
      if (value === null) continue;
      objects.push({ file, value });
    }
  }
  return { objects, problems };
}

export const describe = (o) => `${o.kind ?? '?'}/${o.metadata?.name ?? '?'}`;

function customResourceValidators() {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const byType = new Map();
  for (const f of readdirSync(SCHEMAS).filter((n) => n.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8'));
    const type = `${schema.properties.apiVersion.const}/${schema.properties.kind.const}`;
    byType.set(type, ajv.compile(schema));
  }
  return byType;
}

/** `apps/v1` + `Deployment` -> `kubernetes-models/apps/v1/Deployment` (core `v1` sits at the root). */
const modelPath = (o) => `kubernetes-models/${o.apiVersion}/${o.kind}`;
const isName = (s) => typeof s === 'string' && /^[A-Za-z0-9.-]+(\/[A-Za-z0-9.-]+)?$/.test(s);

async function builtinModel(o) {
  if (!isName(o.apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(String(o.kind))) return undefined;
  try {
    const mod = await import(modelPath(o));
    return mod[o.kind];
  } catch {
    return undefined;
  }
}

/** The TypeScript check: each built-in object as a literal of its model's interface. */
function unknownFields(builtins) {
  if (!builtins.length) return [];
  const imports = [];
  const consts = [];
  builtins.forEach(({ value }, i) => {
    imports.push(`import type { I${value.kind} as T${i} } from '${modelPath(value)}';`);
    consts.push(`export const o${i}: T${i} = ${JSON.stringify(value)};`);
  });
  const fileName = join(ROOT, 'tmp', '__k8s_objects__.ts');
  const text = `${imports.join('\n')}\n${consts.join('\n')}\n`;
  const firstObjectLine = imports.length;
  const options = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === fileName ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!d.file || d.file.fileName !== fileName) return `TypeScript: ${message}`;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const owner = builtins[line - firstObjectLine];
    return owner
      ? `${owner.file}: ${describe(owner.value)}: ${message}`
      : `TypeScript (${fileName}:${line + 1}): ${message}`;
  });
}

export async function validate(files) {
  const { objects, problems } = readObjects(files);
  const custom = customResourceValidators();
  const builtins = [];
  let customCount = 0;
  for (const o of objects) {
    const v = o.value;
    const where = `${o.file}: ${describe(v)}`;
    if (typeof v !== 'object' || Array.isArray(v)) {
      problems.push(`${o.file}: a document that is not an object`);
      continue;
    }
    const crd = custom.get(`${v.apiVersion}/${v.kind}`);
    if (crd) {
      customCount++;
      if (!crd(v)) {
        for (const e of crd.errors ?? [])
          problems.push(
            `${where}: ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`,
          );
      }
      continue;
    }
    // kustomize wraps long base64 values of a Secret's data at 70 characters; the API server's decoder
    // (Go's encoding/base64) skips the line breaks, the schema's `byte` format does not.
    if (v.apiVersion === 'v1' && v.kind === 'Secret' && v.data)
      v.data = Object.fromEntries(
        Object.entries(v.data).map(([k, d]) => [k, typeof d === 'string' ? d.replace(/[\r\n]/g, '') : d]),
      );
    const Model = await builtinModel(v);
    if (!Model) {
      problems.push(`${where}: no schema for ${v.apiVersion} ${v.kind} (kubernetes-models or k8s/schemas)`);
      continue;
    }
    try {
      new Model(v).validate();
      builtins.push(o);
    } catch (err) {
      problems.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  problems.push(...unknownFields(builtins));
  return { objects: objects.length, builtins: builtins.length, custom: customCount, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length) {
    process.stderr.write('usage: node scripts/validate-k8s.mjs <rendered.yaml>...\n');
    process.exit(2);
  }
  const r = await validate(files);
  if (r.problems.length) {
    process.stderr.write(`${r.problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.stderr.write(`schema check: ${r.problems.length} problem(s) in ${files.join(', ')}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `schema check: ${r.objects} objects of ${files.join(', ')}: ${r.builtins} built-in (kubernetes-models ` +
      `schemas and types), ${r.custom} custom resources (k8s/schemas)\n`,
  );
}
