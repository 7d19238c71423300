import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import express from 'express';
import { httpObserver, tenantOf } from './http-observer';
import { PlatformLogger } from './logging';
import { metricsRegistry } from './metrics';

/** JSON log lines written while the requests run. */
const lines: Record<string, unknown>[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const logger = new PlatformLogger({ format: 'json', service: 'test', instance: 'i-1' });
  Logger.overrideLogger(logger);
  const collect = (chunk: unknown) => {
    const text = String(chunk);
    if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
    return true;
  };
  jest.spyOn(process.stdout, 'write').mockImplementation(collect);
  jest.spyOn(process.stderr, 'write').mockImplementation(collect);
  const app = express();
  app.use((req, _res, next) => {
    (req as unknown as { requestId: string }).requestId = String(req.headers['x-request-id'] ?? 'none');
    next();
  });
  app.use(httpObserver());
  app.use((req, _res, next) => {
    // What an app's guard does for an authenticated caller (libs/auth).
    if (req.headers['x-test-org'])
      (req as unknown as { principal: object }).principal = {
        kind: 'key',
        ownerId: 'product-9',
        organizationId: req.headers['x-test-org'],
      };
    next();
  });
  app.get('/portal/v1/upload/:token/documents', (_req, res) => void res.status(201).json({ ok: true }));
  app.get('/health/live', (_req, res) => void res.json({ status: 'up' }));
  app.get('/boom', (_req, res) => void res.status(503).json({ ok: false }));
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({}), 1000));
  await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  jest.restoreAllMocks();
  await new Promise((r) => server.close(r));
});

async function requestAndWait(path: string, headers: Record<string, string> = {}) {
  const before = lines.length;
  const res = await fetch(`${base}${path}`, { headers });
  await res.text();
  for (let i = 0; i < 50 && lines.length === before; i++) await new Promise((r) => setTimeout(r, 10));
  return { status: res.status, line: lines[lines.length - 1] };
}

async function bucketCount(labels: string): Promise<number> {
  const text = await metricsRegistry.metrics();
  const m = text.match(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm'));
  return m ? Number(m[1]) : 0;
}

describe('httpObserver', () => {
  it('logs one line per request with the route pattern, never the path, query or headers', async () => {
    const { status, line } = await requestAndWait(
      '/portal/v1/upload/SECRET-TOKEN-1/documents?token=q-secret',
      {
        'x-request-id': 'req-42',
        'x-api-key': 'key-secret',
        'x-test-org': 'org-7',
      },
    );
    expect(status).toBe(201);
    expect(line).toMatchObject({
      level: 'log',
      context: 'HTTP',
      requestId: 'req-42',
      tenant: 'org-7',
      method: 'GET',
      route: '/portal/v1/upload/:token/documents',
      status: 201,
      message: expect.stringMatching(/^GET \/portal\/v1\/upload\/:token\/documents 201 [\d.]+ms$/),
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(line)).not.toMatch(/SECRET-TOKEN-1|q-secret|key-secret/);
  });

  it('counts the request in the histogram by method, route pattern and status', async () => {
    const labels = 'method="GET",route="/portal/v1/upload/:token/documents",status="201"';
    const before = await bucketCount(labels);
    await requestAndWait('/portal/v1/upload/another-token/documents');
    expect(await bucketCount(labels)).toBe(before + 1);
    const text = await metricsRegistry.metrics();
    expect(text).toContain(`http_request_duration_seconds_bucket{le="0.005",${labels}}`);
  });

  it('labels every unknown path as one route, and logs server errors as errors', async () => {
    const unknown = await requestAndWait('/no/such/thing-123');
    expect(unknown.line).toMatchObject({ route: 'unmatched', status: 404, level: 'log' });
    expect(JSON.stringify(unknown.line)).not.toContain('thing-123');
    const boom = await requestAndWait('/boom');
    expect(boom.line).toMatchObject({ route: '/boom', status: 503, level: 'error' });
  });

  it('keeps successful probes out of the log at the default level, but counts them', async () => {
    const labels = 'method="GET",route="/health/live",status="200"';
    const before = await bucketCount(labels);
    const logged = lines.length;
    await fetch(`${base}/health/live`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.length).toBe(logged);
    expect(await bucketCount(labels)).toBe(before + 1);
  });

  it('records a request the client gave up on as 499', async () => {
    const labels = 'method="GET",route="/slow",status="499"';
    const before = await bucketCount(labels);
    const aborted = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: aborted.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    aborted.abort();
    await pending;
    for (let i = 0; i < 50 && (await bucketCount(labels)) === before; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await bucketCount(labels)).toBe(before + 1);
  });
});

describe('tenantOf', () => {
  const req = (principal: unknown) => ({ principal }) as never;
  it("takes the organization, else the account, else the key's owner", () => {
    expect(tenantOf(req({ organizationId: 'o', accountId: 'a', ownerId: 'p' }))).toBe('o');
    expect(tenantOf(req({ kind: 'person', accountId: 'a' }))).toBe('a');
    expect(tenantOf(req({ kind: 'key', ownerId: 'org-1' }))).toBe('org-1');
    expect(tenantOf(req({ kind: 'guest', scopes: [] }))).toBeUndefined();
    expect(tenantOf(req(undefined))).toBeUndefined();
  });
});
