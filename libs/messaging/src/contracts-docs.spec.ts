import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { schemas as asyncApiSchemas } from '@asyncapi/specs';
import Ajv, { type AnySchema } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { violations, type TopicContract } from './contract';
import { topicDocumentation } from './documentation';
import { SCHEMA_BASE_URI } from './json-schema';
import { CONTRACTS } from './registry';

/**
 * The files other teams generate code from (docs/contracts/schemas/, docs/asyncapi/): they match the
 * contracts, the AsyncAPI document is valid AsyncAPI 3.0.0, and each schema accepts what the platform
 * sends and refuses what it does not. Written by scripts/gen-contracts.ts (`npm run gen:contracts`),
 * which this test runs in `--check` mode: the script needs libs/registry, which this lib may not
 * import, so it runs in its own process.
 */
const ROOT = resolve(__dirname, '../../..');
const SCHEMA_DIR = join(ROOT, 'docs/contracts/schemas');
const ASYNCAPI_FILE = join(ROOT, 'docs/asyncapi/platform.asyncapi.json');
const topics = topicDocumentation();
const members = topics.flatMap((t) => t.members.map((m) => ({ topic: t, member: m })));
/** An event type's own payload file, on a topic of several. */
const memberFile = (schema: { $id: string }) => join(SCHEMA_DIR, schema.$id.slice(SCHEMA_BASE_URI.length));

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
/** The AsyncAPI channel id of a topic, as scripts/gen-contracts.ts names it. */
const camelName = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const schemaFile = (topic: string, kind: '' | '.headers') => join(SCHEMA_DIR, `${topic}${kind}.schema.json`);
/** As a consumer in another language would: a fresh validator per file, only the file itself. */
function compile2020(path: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(readJson(path) as AnySchema);
}

/** Follows a local JSON pointer (`#/components/messages/X`) in the document. */
function resolvePointer(doc: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, found));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  return found;
}

interface AsyncApiMessage {
  headers: { $ref: string };
  payload: { $ref: string };
  examples?: { headers: Record<string, string>; payload: unknown }[];
}
interface AsyncApiDocument {
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string } }>;
  components: { messages: Record<string, AsyncApiMessage> };
}

describe('published event contracts', () => {
  it('match the code (npm run gen:contracts -- --check)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        './scripts/register-paths.js',
        'scripts/gen-contracts.ts',
        '--check',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, TS_NODE_PROJECT: 'scripts/tsconfig.typecheck.json' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({
      status: 0,
      output: expect.stringContaining('up to date'),
    });
  }, 60_000);

  it('publish each contract as it is validated here, with no file left over', () => {
    const expected = topics.flatMap((t) => [
      schemaFile(t.topic, ''),
      schemaFile(t.topic, '.headers'),
      ...t.members.map((m) => memberFile(m.payloadSchema)),
    ]);
    const present = readdirSync(SCHEMA_DIR).map((f) => join(SCHEMA_DIR, f));
    expect([...present].sort()).toEqual([...expected].sort());
    for (const t of topics) {
      expect(readJson(schemaFile(t.topic, ''))).toEqual(JSON.parse(JSON.stringify(t.payloadSchema)));
      expect(readJson(schemaFile(t.topic, '.headers'))).toEqual(JSON.parse(JSON.stringify(t.headersSchema)));
    }
    expect(members.length).toBeGreaterThan(0);
    for (const { member } of members)
      expect(readJson(memberFile(member.payloadSchema))).toEqual(
        JSON.parse(JSON.stringify(member.payloadSchema)),
      );
  });

  it('are JSON Schema 2020-12 documents with an $id, a title and a description per field', () => {
    const ids = new Set<string>();
    for (const path of readdirSync(SCHEMA_DIR).map((f) => join(SCHEMA_DIR, f))) {
      const doc = readJson(path) as Record<string, unknown>;
      expect([path, doc.$schema]).toEqual([path, 'https://json-schema.org/draft/2020-12/schema']);
      expect([path, typeof doc.$id, typeof doc.title, typeof doc.description]).toEqual([
        path,
        'string',
        'string',
        'string',
      ]);
      ids.add(doc.$id as string);
      // A union's branches are documented like a payload of their own.
      const objects = [doc, ...((doc.oneOf ?? []) as Record<string, unknown>[])];
      for (const o of objects)
        for (const [field, s] of Object.entries(
          (o.properties ?? {}) as Record<string, { description?: string }>,
        ))
          expect([path, field, typeof s.description]).toEqual([path, field, 'string']);
      expect(() => compile2020(path)).not.toThrow();
      // Only keywords that mean the same in draft-07, which AsyncAPI's default schema format builds on.
      const { $schema: _dialect, ...rest } = doc;
      const draft07 = new Ajv({ strict: true, allowUnionTypes: true });
      addFormats(draft07);
      expect(() => draft07.compile(rest)).not.toThrow();
    }
    expect(ids.size).toBe(topics.length * 2 + members.length);
  });

  it('accept every topic example and refuse what the platform would not send', () => {
    for (const t of topics) {
      const payload = compile2020(schemaFile(t.topic, ''));
      const headers = compile2020(schemaFile(t.topic, '.headers'));
      const example = t.example;
      expect([t.topic, example !== null]).toEqual([t.topic, true]);
      if (!example) continue;
      expect([t.topic, payload(example.payload), payload.errors ?? null]).toEqual([t.topic, true, null]);
      expect([t.topic, headers(example.headers), headers.errors ?? null]).toEqual([t.topic, true, null]);

      const withoutRequired = { ...example.headers };
      delete withoutRequired[t.eventType === null ? 'original-topic' : 'event-id'];
      expect([t.topic, headers(withoutRequired)]).toEqual([t.topic, false]);
      if (t.eventType === null) continue; // a dead letter's value is whatever the original was

      expect([t.topic, headers({ ...example.headers, 'schema-version': '2' })]).toEqual([t.topic, false]);
      const fields = Object.keys(example.payload as object);
      const invalid: Record<string, unknown>[] = [
        { ...(example.payload as object), unknownField: 1 },
        Object.fromEntries(Object.entries(example.payload as object).slice(1)),
        { ...(example.payload as object), [fields[0]]: 42 },
      ];
      for (const bad of invalid) expect([t.topic, bad, payload(bad)]).toEqual([t.topic, bad, false]);
    }
  });

  /** The example and every way of breaking one field of it. */
  const samplesOf = (c: TopicContract<unknown>) => [
    c.example,
    { ...(c.example as object), extra: true },
    ...Object.keys(c.schema).flatMap((k) => [
      { ...(c.example as object), [k]: null },
      { ...(c.example as object), [k]: 'x'.repeat(600) },
      { ...(c.example as object), [k]: -1 },
    ]),
  ];

  it('the payload files refuse exactly what the contracts refuse', () => {
    for (const c of CONTRACTS.values()) {
      const file = compile2020(schemaFile(c.topic, ''));
      for (const s of samplesOf(c))
        expect([c.topic, s, file(s)]).toEqual([c.topic, s, violations(c, s).length === 0]);
    }
  });

  it("each event type's file and its topic's union refuse exactly what the type's contract refuses", () => {
    const families = [...CONTRACTS.values()].filter((c) => c.members);
    expect(families.length).toBeGreaterThan(0);
    for (const family of families) {
      const union = compile2020(schemaFile(family.topic, ''));
      const types = (family.members ?? []).map((m) => m.eventType);
      for (const c of family.members ?? []) {
        const own = compile2020(memberFile(c.payloadSchema));
        const other = types.find((t) => t !== c.eventType);
        const samples = [
          ...samplesOf(c),
          // The type decides the schema: another type's name, or none known, is refused.
          ...(other ? [{ ...(c.example as object), eventType: other }] : []),
          { ...(c.example as object), eventType: 'lending.bureau.unknown' },
        ];
        for (const s of samples) {
          const ok = violations(c, s).length === 0;
          expect([c.eventType, s, own(s), union(s)]).toEqual([c.eventType, s, ok, ok]);
          expect([c.eventType, s, violations(family, s).length === 0]).toEqual([c.eventType, s, ok]);
        }
      }
    }
  });

  describe('the AsyncAPI document', () => {
    const doc = readJson(ASYNCAPI_FILE) as AsyncApiDocument;

    it('is valid AsyncAPI 3.0.0 (the official JSON Schema of @asyncapi/specs)', () => {
      // The official schema embeds the draft-07 meta-schema under its own id: ajv must not add its copy.
      const ajv = new Ajv({ allErrors: true, strict: false, meta: false, validateSchema: false });
      addFormats(ajv);
      const validate = ajv.compile(asyncApiSchemas['3.0.0'] as AnySchema);
      expect(validate(doc) ? [] : validate.errors).toEqual([]);
      // It bites: a wrong action is refused.
      const broken = JSON.parse(JSON.stringify(doc)) as AsyncApiDocument;
      Object.values(broken.operations)[0].action = 'publish';
      expect(validate(broken)).toBe(false);
    });

    it('describes every topic as a channel with a sender, and every reference resolves', () => {
      expect(Object.values(doc.channels).map((c) => c.address)).toEqual(topics.map((t) => t.topic));
      for (const [id] of Object.entries(doc.channels))
        expect([
          id,
          Object.values(doc.operations).some((o) => o.channel.$ref === `#/channels/${id}`),
        ]).toEqual([id, true]);
      for (const ref of refsIn(doc)) {
        if (ref.startsWith('#/')) expect([ref, resolvePointer(doc, ref) !== undefined]).toEqual([ref, true]);
        else expect([ref, existsSync(resolve(ASYNCAPI_FILE, '..', ref))]).toEqual([ref, true]);
      }
    });

    it('references the schema files, and its examples are valid against them', () => {
      for (const t of topics) {
        if (t.members.length) continue; // below
        const m = doc.components.messages[t.name];
        expect(resolve(ASYNCAPI_FILE, '..', m.payload.$ref)).toBe(schemaFile(t.topic, ''));
        expect(resolve(ASYNCAPI_FILE, '..', m.headers.$ref)).toBe(schemaFile(t.topic, '.headers'));
        const payload = compile2020(schemaFile(t.topic, ''));
        const headers = compile2020(schemaFile(t.topic, '.headers'));
        for (const e of m.examples ?? []) {
          expect([t.topic, payload(e.payload), headers(e.headers)]).toEqual([t.topic, true, true]);
        }
      }
    });

    it('lists each event type of a topic of several as its own message, with its own payload file', () => {
      for (const t of topics.filter((x) => x.members.length)) {
        const channel = Object.values(doc.channels).find((c) => c.address === t.topic);
        const names = t.members.map((m) => m.name);
        expect(Object.keys(channel?.messages ?? {})).toEqual(names);
        const operations = Object.values(doc.operations).filter(
          (x) => x.channel.$ref === `#/channels/${camelName(t.name)}`,
        ) as unknown as { messages: { $ref: string }[] }[];
        expect(operations.length).toBeGreaterThan(0);
        for (const o of operations) expect(o.messages.length).toBe(names.length);
        const union = compile2020(schemaFile(t.topic, ''));
        const headers = compile2020(schemaFile(t.topic, '.headers'));
        for (const member of t.members) {
          const m = doc.components.messages[member.name] as AsyncApiMessage & { name: string };
          expect(m.name).toBe(member.eventType);
          expect(resolve(ASYNCAPI_FILE, '..', m.payload.$ref)).toBe(memberFile(member.payloadSchema));
          expect(resolve(ASYNCAPI_FILE, '..', m.headers.$ref)).toBe(schemaFile(t.topic, '.headers'));
          const own = compile2020(memberFile(member.payloadSchema));
          expect(m.examples?.length).toBe(1);
          for (const e of m.examples ?? []) {
            expect(e.headers['event-type']).toBe(member.eventType);
            expect([member.name, own(e.payload), union(e.payload), headers(e.headers)]).toEqual([
              member.name,
              true,
              true,
              true,
            ]);
            // The header names the type: another type's name or an unknown one is refused.
            expect(headers({ ...e.headers, 'event-type': 'lending.bureau.unknown' })).toBe(false);
          }
        }
      }
    });
  });
});
