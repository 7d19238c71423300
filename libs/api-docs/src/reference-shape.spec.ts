import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type Json = Record<string, unknown>;
const DIR = resolve(__dirname, '../../../docs/openapi');
const english = readdirSync(DIR).filter((f) => f.endsWith('.en.json'));
const read = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

function operations(doc: Json): Json[] {
  return Object.values(doc.paths as Record<string, Json>).flatMap((item) =>
    METHODS.flatMap((m) => (item[m] ? [item[m] as Json] : [])),
  );
}

/** Object schemas with properties, anywhere in the document (examples excluded). */
function objectSchemas(node: unknown, out: Json[] = []): Json[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    node.forEach((n) => objectSchemas(n, out));
    return out;
  }
  const s = node as Json;
  if (s.properties && typeof s.properties === 'object') out.push(s);
  for (const [k, v] of Object.entries(s)) if (k !== 'example' && k !== 'examples') objectSchemas(v, out);
  return out;
}

/** What SDK generators read from the committed references (scripts/check-api-clients.sh compiles one). */
describe.each(english)('%s, as SDK generators read it', (file) => {
  const doc = read(file);

  it("names every operation by a stable id, not Nest's <Controller>_<method>, unique ignoring case", () => {
    const ids = operations(doc).map((op) => String(op.operationId));
    expect(ids.filter((id) => /Controller_/.test(id))).toEqual([]);
    expect(new Set(ids.map((id) => id.toLowerCase())).size).toBe(ids.length);
  });

  it('says which properties every object schema requires', () => {
    const schemas = objectSchemas(doc);
    expect(schemas.length).toBeGreaterThan(10);
    expect(
      schemas.filter((s) => !Array.isArray(s.required)).map((s) => Object.keys(s.properties as Json)),
    ).toEqual([]);
  });

  it('describes a bearer token exchanged by client credentials as OAuth 2.0, with its token URL', () => {
    const schemes = ((doc.components as Json).securitySchemes ?? {}) as Record<string, Json>;
    for (const scheme of Object.values(schemes)) {
      if (scheme.type !== 'oauth2') {
        expect(scheme).toMatchObject({ type: 'apiKey', in: 'header' });
        expect(String(scheme.name).toLowerCase()).not.toBe('authorization');
        continue;
      }
      const flow = (scheme.flows as Json).clientCredentials as Json;
      expect(flow.tokenUrl).toMatch(/^\/.+\/token$/);
      expect(Object.keys(flow.scopes as Json).length).toBeGreaterThan(0);
    }
  });
});
