import fc from 'fast-check';
import { connect } from 'node:net';
import { rawRequest, type RawResponse } from '../http';
import { hostileJsonValues, hostileQueryValues } from './hostile-values';
import type { FieldDescriptor, RouteManifestEntry } from './route-manifest';

/** One app's routes and how to reach them. */
export interface FuzzTarget {
  app: string;
  routes: RouteManifestEntry[];
  /** Where a route's path is sent: the gateway, or the app's own port for routes the gateway does not route. */
  urlFor(route: RouteManifestEntry): string;
  /** Headers that authenticate for the route; undefined when it is public. */
  credentials(route: RouteManifestEntry): Record<string, string> | undefined;
  /** The app's readiness URL, checked after the run. */
  readyUrl: string;
  /**
   * For a route whose errors follow a standard other than the envelope (an OAuth token endpoint):
   * the problems of one of its 4xx answers. Undefined: the envelope is expected, as for every route.
   */
  errorProblems?(route: RouteManifestEntry): ((res: RawResponse) => string[]) | undefined;
  /**
   * The requests for a route whose inputs the manifest cannot describe (WebDAV methods with XML and
   * iCalendar bodies: dav-cases.ts), sent instead of the JSON catalogue; undefined: the catalogue.
   */
  routeCases?(route: RouteManifestEntry): FuzzCase[] | undefined;
}

export interface FuzzOptions {
  seed: number;
  /** Random requests per route, on top of the boundary catalogue. */
  randomPerRoute: number;
  concurrency: number;
  /** A request without an answer in this time counts as a hang. */
  timeoutMs: number;
}

export interface FuzzCase {
  app: string;
  route: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The answer is not an envelope when successful (metrics, files). */
  raw: boolean;
  /** The target's own check of an error answer (FuzzTarget.errorProblems). */
  errorProblems?: (res: RawResponse) => string[];
}

export interface FuzzFailure {
  app: string;
  route: string;
  label: string;
  problem: string;
}

export interface FuzzReport {
  apps: number;
  routes: number;
  requests: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  notReady: string[];
}

const MARK = '"__fuzz_value__"';

/** A value that passes the field's declared rules, so one field at a time can be made hostile. */
function validValue(f: Omit<FieldDescriptor, 'name' | 'required'>): unknown {
  switch (f.kind) {
    case 'int':
    case 'number':
      return Math.max(f.min ?? 0, Math.min(1, f.max ?? 1));
    case 'boolean':
      return true;
    case 'instant':
      return '2026-12-01T10:00:00Z';
    case 'date':
      return '2026-12-01';
    case 'timezone':
      return 'Asia/Almaty';
    case 'enum':
      return f.values?.[0] ?? 'x';
    case 'array':
      return f.items ? [validValue(f.items)] : [];
    case 'object':
      return baseObject(f.fields ?? []);
    case 'map':
      return { k: 'v' };
    default:
      return 'fuzz';
  }
}

function baseObject(fields: FieldDescriptor[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f.required).map((f) => [f.name, validValue(f)]));
}

/** Every field path with its descriptor, nested objects included. */
function fieldPaths(fields: FieldDescriptor[], prefix: string[] = []): [string[], FieldDescriptor][] {
  return fields.flatMap((f): [string[], FieldDescriptor][] => [
    [[...prefix, f.name], f],
    ...(f.kind === 'object' && f.fields ? fieldPaths(f.fields, [...prefix, f.name]) : []),
  ]);
}

/** The base body with the field at `path` replaced by raw JSON text. */
function bodyWith(fields: FieldDescriptor[], path: string[], rawJson: string): Buffer {
  const root = baseObject(fields);
  let node: Record<string, unknown> = root;
  let defs = fields;
  for (const key of path.slice(0, -1)) {
    const def = defs.find((d) => d.name === key);
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = baseObject(def?.fields ?? []);
    node = node[key] as Record<string, unknown>;
    defs = def?.fields ?? [];
  }
  node[path[path.length - 1]] = '__fuzz_value__';
  return Buffer.from(
    JSON.stringify(root).replace(MARK, () => rawJson),
    'utf8',
  );
}

function queryOf(params: [string, string][]): string {
  return params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
}

function validQuery(fields: FieldDescriptor[]): [string, string][] {
  return fields
    .filter((f) => f.required)
    .map((f) => [f.name, encodeURIComponent(String(validValue(f)))] as [string, string]);
}

const RAW_BODIES: [string, Buffer, string?][] = [
  ['deep 10000', Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)],
  ['deep object 33', Buffer.from(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`)],
  [
    'invalid utf-8',
    Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
  ],
  [
    'overlong utf-8 NUL',
    Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]),
  ],
  ['lone surrogate key', Buffer.from('{"\\ud800":1}')],
  ['NUL key', Buffer.from('{"a\\u0000":1}')],
  ['array', Buffer.from('[1,2,3]')],
  ['scalar string', Buffer.from('"text"')],
  ['null', Buffer.from('null')],
  ['truncated', Buffer.from('{"a":')],
  ['empty', Buffer.alloc(0)],
  ['not json', Buffer.from('entity_type=x&entity_id=y')],
  ['infinity', Buffer.from('{"a":1e400}')],
  ['__proto__', Buffer.from('{"__proto__":{"isAdmin":true}}')],
  ['constructor.prototype', Buffer.from('{"constructor":{"prototype":{"isAdmin":true}}}')],
  ['2 MB', Buffer.from(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`)],
  ['text/plain', Buffer.from('{}'), 'text/plain'],
  ['latin1 charset', Buffer.from('{}'), 'application/json; charset=latin1'],
];

function headerCases(auth: Record<string, string>): [string, Record<string, string>][] {
  const cases: [string, Record<string, string>][] = [
    ['20 KB header', { ...auth, 'X-Padding': 'x'.repeat(20_000) }],
    ['Language-Code junk', { ...auth, 'Language-Code': 'x'.repeat(5000) }],
    ['Accept-Language junk', { ...auth, 'Accept-Language': 'zz;q=abc, *;q=-1, ru;q=1e9' }],
    ['X-Request-Id junk', { ...auth, 'X-Request-Id': 'a b;c\u00ff'.repeat(100) }],
    ['gzip encoding', { ...auth, 'Content-Encoding': 'gzip' }],
  ];
  for (const name of Object.keys(auth)) {
    for (const [label, value] of [
      ['empty', ''],
      ['malformed', 'not-a-key'],
      ['huge', 'k'.repeat(8000)],
      ['latin1', '\u00ff\u00fe'],
    ]) {
      cases.push([`${name} ${label}`, { ...auth, [name]: value }]);
    }
  }
  return cases;
}

/** Every request of the run for one route: catalogue first, then the seeded random ones. */
export function casesFor(target: FuzzTarget, route: RouteManifestEntry, opts: FuzzOptions): FuzzCase[] {
  const auth = target.credentials(route) ?? {};
  const base = target.urlFor(route);
  const id = `${route.method} ${route.path}`;
  const q0 = validQuery(route.query ?? []);
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const body0 = hasBody ? Buffer.from(JSON.stringify(baseObject(route.body ?? []))) : undefined;
  const out: FuzzCase[] = [];
  const add = (
    label: string,
    query: [string, string][],
    headers: Record<string, string>,
    body?: Buffer,
    ct?: string,
  ) =>
    out.push({
      app: target.app,
      route: id,
      label,
      method: route.method,
      url: `${base}${queryOf(query)}`,
      headers: body ? { 'content-type': ct ?? 'application/json', ...headers } : headers,
      body,
      raw: route.raw,
      errorProblems: target.errorProblems?.(route),
    });

  add('baseline', q0, auth, body0);
  if (route.access === 'authenticated') add('anonymous', q0, {}, body0);
  for (const [label, headers] of headerCases(auth)) add(label, q0, headers, body0);
  for (const f of route.query ?? []) {
    for (const v of hostileQueryValues(f))
      add(
        `query ${f.name}=${v.slice(0, 40)}`,
        [...q0.filter(([k]) => k !== f.name), [f.name, v]],
        auth,
        body0,
      );
    add(`query ${f.name} twice`, [...q0, [f.name, 'a'], [f.name, 'b']], auth, body0);
    add(`query ${f.name}[x]`, [...q0, [`${f.name}[x]`, 'y']], auth, body0);
  }
  for (const extra of ['__proto__', 'constructor', 'hasOwnProperty', 'unknown_param', '%ff', '%00']) {
    add(`query param ${extra}`, [...q0, [extra, '1']], auth, body0);
  }
  add('path %00', q0, auth, body0);
  out[out.length - 1].url = `${base}%00${queryOf(q0)}`;
  add('path %ff', q0, auth, body0);
  out[out.length - 1].url = `${base}/%ff${queryOf(q0)}`;
  if (hasBody) {
    for (const [path, f] of fieldPaths(route.body ?? [])) {
      for (const v of hostileJsonValues(f))
        add(`body ${path.join('.')}=${v.slice(0, 40)}`, q0, auth, bodyWith(route.body ?? [], path, v));
    }
    for (const [label, raw, ct] of RAW_BODIES) add(`raw body ${label}`, q0, auth, raw, ct);
  }

  // Seeded random inputs: arbitrary JSON (full unicode, lone surrogates included) in declared fields,
  // and arbitrary strings in declared query parameters.
  const rnd = fc.sample(
    fc.record({
      field: fc.nat(),
      json: fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
      text: fc.string({ unit: 'binary', maxLength: 300 }),
    }),
    { seed: opts.seed + out.length, numRuns: opts.randomPerRoute },
  );
  const paths = fieldPaths(route.body ?? []);
  for (const r of rnd) {
    if (hasBody && paths.length) {
      const [path] = paths[r.field % paths.length];
      add(
        `random body ${path.join('.')}`,
        q0,
        auth,
        bodyWith(route.body ?? [], path, JSON.stringify(r.json)),
      );
    }
    const qf = route.query ?? [];
    if (qf.length) {
      const f = qf[r.field % qf.length];
      const encoded = Buffer.from(r.text, 'utf8')
        .toString('latin1')
        .replace(/[^A-Za-z0-9]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
      add(`random query ${f.name}`, [...q0.filter(([k]) => k !== f.name), [f.name, encoded]], auth, body0);
    }
  }
  return out;
}

function problemsOf(c: FuzzCase, res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}: ${res.text.slice(0, 300)}`);
  const requestId = res.headers['x-request-id'];
  if (!requestId) problems.push('no X-Request-Id header');
  if (c.raw && res.status < 400) return problems;
  if (c.errorProblems && res.status >= 400 && res.status < 500) return [...problems, ...c.errorProblems(res)];
  const env = res.json;
  if (!env || Object.keys(env).sort().join() !== 'code,error,success,value') {
    problems.push(`not the envelope (${res.status}): ${res.text.slice(0, 200)}`);
    return problems;
  }
  if (env.code !== res.status) problems.push(`envelope code ${String(env.code)} but status ${res.status}`);
  if (env.success === false) {
    const v = env.value as { reason?: unknown; requestId?: unknown };
    if (typeof v?.reason !== 'string') problems.push('error envelope without value.reason');
    if (v?.requestId !== requestId) problems.push('error envelope without the request id');
    if (typeof env.error !== 'string' || !env.error) problems.push('error envelope without a text');
  }
  return problems;
}

/** Malformed HTTP that never reaches a route: Node's own parser must answer in the envelope too. */
async function rawSocketCase(url: string, bytes: string, timeoutMs: number): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolveResponse, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(rest.join('\r\n\r\n')) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolveResponse({ status, headers, text, json });
    });
    socket.end(bytes);
  });
}

const MALFORMED_HTTP: [string, string][] = [
  ['header without colon', 'GET /health/live HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n'],
  ['bad request line', 'GARBAGE\r\n\r\n'],
  ['NUL in header', 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
  [
    'conflicting lengths',
    'POST /health/live HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  ],
  [
    '30 KB header',
    `GET /health/live HTTP/1.1\r\nHost: x\r\nLanguage-Code: ru\r\nX-Big: ${'y'.repeat(30_000)}\r\n\r\n`,
  ],
];

async function pool<T>(items: T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

/**
 * Sends every case of every route of every target and checks each answer: never a 5xx, never a hang,
 * always the envelope with the request id; afterwards every app must still be ready.
 */
export async function runFuzz(
  targets: FuzzTarget[],
  origins: string[],
  opts: FuzzOptions,
): Promise<FuzzReport> {
  const cases = targets.flatMap((t) => t.routes.flatMap((r) => t.routeCases?.(r) ?? casesFor(t, r, opts)));
  const report: FuzzReport = {
    apps: targets.length,
    routes: targets.reduce((n, t) => n + t.routes.length, 0),
    requests: 0,
    byStatus: {},
    failures: [],
    notReady: [],
  };
  const record = (
    c: Pick<FuzzCase, 'app' | 'route' | 'label'>,
    res: RawResponse | undefined,
    problems: string[],
  ) => {
    report.requests++;
    const key = res ? String(res.status) : 'none';
    report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
    for (const problem of problems)
      report.failures.push({ app: c.app, route: c.route, label: c.label, problem });
  };
  await pool(cases, opts.concurrency, async (c) => {
    try {
      const res = await rawRequest(c.url, {
        method: c.method,
        headers: c.headers,
        body: c.body,
        timeoutMs: opts.timeoutMs,
      });
      record(c, res, problemsOf(c, res));
    } catch (err) {
      record(c, undefined, [`no answer: ${(err as Error).message}`]);
    }
  });
  for (const origin of origins) {
    for (const [label, bytes] of MALFORMED_HTTP) {
      const c = {
        app: origin,
        route: '(http parser)',
        label,
        method: 'GET',
        url: origin,
        headers: {},
        raw: false,
      };
      try {
        const res = await rawSocketCase(origin, bytes, opts.timeoutMs);
        record(c, res, problemsOf(c, res));
      } catch (err) {
        record(c, undefined, [`no answer: ${(err as Error).message}`]);
      }
    }
  }
  for (const t of targets) {
    const ready = await rawRequest(t.readyUrl, { timeoutMs: opts.timeoutMs }).catch(() => undefined);
    if (ready?.status !== 200) report.notReady.push(`${t.app}: ${ready?.status ?? 'no answer'}`);
  }
  return report;
}
