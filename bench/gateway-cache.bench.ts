/**
 * The gateway's micro-cache against references, in one run on this machine: req/s (and p50/p99) of a
 * bare Node `http` hello-world, a plain Nest 12 hello-world, the public status GET served from the
 * gateway's cache, the same GET straight from the public-status app, through nginx as a plain reverse
 * proxy (Debian package, installed here when missing and root), and through the gateway with its
 * cache off; then the ratios. Every server is its own process; the load comes from this process with
 * the keep-alive client the other benches use, so on 2 cores the fastest figures are bounded by the
 * client as much as by the server (read the ratios with that in mind).
 *
 * BENCH_SECONDS (10) per target after a 2 s warm-up, BENCH_CONCURRENCY (32), BENCH_NGINX_WORKERS (1:
 * one process, like one gateway replica).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { KafkaMockCluster, freePort, runAdmin, startEmbeddedPostgres } from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';

const DIST = resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const NGINX_WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const PATH = '/PublicStatus/Products';
const print = (line: string) => process.stdout.write(`${line}\n`);

// ---- child modes: the two hello-worlds run as their own processes -----------------------------------

@Controller()
class HelloController {
  @Get()
  hello(): string {
    return 'hello world';
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function child(mode: string, port: number): Promise<void> {
  if (mode === 'node-hello') {
    createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('hello world');
    }).listen(port, '127.0.0.1', () => print('ready'));
    return;
  }
  const app = await NestFactory.create(HelloModule, { logger: false });
  await app.listen(port, '127.0.0.1');
  print('ready');
}

// ---- the load generator (as in calendar-gateway.bench.ts) --------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Outcome {
  status: number;
  cache?: string;
}

function call(url: URL): Promise<Outcome> {
  return new Promise((resolveOutcome) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'GET' },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolveOutcome({
            status: res.statusCode ?? 0,
            cache: res.headers['x-cache'] as string | undefined,
          }),
        );
      },
    );
    // A failed request counts as status -1 rather than stopping the run.
    req.on('error', () => resolveOutcome({ status: -1 }));
    req.end();
  });
}

interface Figure {
  name: string;
  rps: number;
}

async function load(name: string, url: URL, seconds: number, report = true): Promise<Figure> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const cache = new Map<string, number>();
  const until = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const t = process.hrtime.bigint();
        const out = await call(url);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
        if (out.cache) cache.set(out.cache, (cache.get(out.cache) ?? 0) + 1);
      }
    }),
  );
  const sec = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
  const rps = Math.round(latencies.length / sec);
  if (report) {
    const x = cache.size ? `, X-Cache ${JSON.stringify(Object.fromEntries(cache))}` : '';
    print(
      `${name.padEnd(34)} ${String(rps).padStart(6)} req/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  ` +
        `(${latencies.length} requests, ${CONCURRENCY} concurrent, statuses ${JSON.stringify(Object.fromEntries(statuses))}${x})`,
    );
  }
  return { name, rps };
}

// ---- processes -------------------------------------------------------------------------------------

const children: ChildProcess[] = [];

function startProcess(cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  p.stdout?.on('data', keep);
  p.stderr?.on('data', keep);
  p.on('exit', (code) => {
    if (code && code !== 143) process.stderr.write(`${cmd} ${args.at(-1)} exited ${code}:\n${output}\n`);
  });
  children.push(p);
  return p;
}

const nodeArgs = (entry: string) => ['-r', join(DIST, 'scripts/register-paths.js'), join(DIST, entry)];

async function waitFor(url: string, what: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer 200 at ${url}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** nginx from Debian, installed here when it is missing and we are root; undefined when unavailable. */
function nginxBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], {
    encoding: 'utf8',
  });
  const path = found.stdout.trim().split('\n')[0];
  if (path) return path;
  if (process.getuid?.() !== 0) {
    print('nginx: not installed and not root; its figure is skipped (apt-get install -y nginx)');
    return undefined;
  }
  print('nginx: installing the Debian package ...');
  const apt = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (apt.status !== 0) {
    print(`nginx: install failed (${apt.stderr.trim().split('\n').at(-1)}); its figure is skipped`);
    return undefined;
  }
  return '/usr/sbin/nginx';
}

/** A plain reverse proxy to the app, no cache: what an ingress in front of it would do. */
function startNginx(binary: string, port: number, upstreamPort: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process on;
worker_processes ${NGINX_WORKERS};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  startProcess(binary, ['-p', dir, '-c', conf]);
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'node-hello' || mode === 'nest-hello') return child(mode, Number(process.argv[3]));

  const pg = await startEmbeddedPostgres({
    dataDir: mkdtempSync(join(tmpdir(), 'bench-gw-')),
    persistent: false,
  });
  const databaseUrl = await pg.createDatabase('bench');
  const cluster = KafkaMockCluster.start(1);
  for (const t of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(t, 3);
  const env = {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: cluster.brokers,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
  };
  const ports = {
    nodeHello: await freePort(),
    nestHello: await freePort(),
    app: await freePort(),
    gateway: await freePort(),
    gatewayNoCache: await freePort(),
    nginx: await freePort(),
  };
  const at = (port: number, path = PATH) => new URL(`http://127.0.0.1:${port}${path}`);
  try {
    startProcess(process.execPath, [
      ...nodeArgs('bench/gateway-cache.bench.js'),
      'node-hello',
      String(ports.nodeHello),
    ]);
    startProcess(process.execPath, [
      ...nodeArgs('bench/gateway-cache.bench.js'),
      'nest-hello',
      String(ports.nestHello),
    ]);
    startProcess(process.execPath, nodeArgs('apps/public-status/src/main.js'), {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(ports.app),
    });
    await waitFor(`http://127.0.0.1:${ports.app}/health/ready`, 'public-status');
    runAdmin(DIST, 'public-status', ['seed-demo'], env);
    const gatewayEnv = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PUBLIC_STATUS_URL: `http://127.0.0.1:${ports.app}`,
      // One client from one address measures the cache, not the per-IP limit (status-page.bench.ts
      // measures with it on).
      GATEWAY_RATE_LIMIT: 'off',
    };
    startProcess(process.execPath, nodeArgs('apps/gateway/src/main.js'), {
      ...gatewayEnv,
      PORT: String(ports.gateway),
    });
    startProcess(process.execPath, nodeArgs('apps/gateway/src/main.js'), {
      ...gatewayEnv,
      PORT: String(ports.gatewayNoCache),
      GATEWAY_CACHE_MAX_BYTES: '0',
    });
    const nginx = nginxBinary();
    if (nginx) startNginx(nginx, ports.nginx, ports.app);
    await Promise.all([
      waitFor(`http://127.0.0.1:${ports.nodeHello}/`, 'node hello-world'),
      waitFor(`http://127.0.0.1:${ports.nestHello}/`, 'nest hello-world'),
      // The gateway's own readiness waits for every service; only public status runs here.
      waitFor(`http://127.0.0.1:${ports.gateway}/health/live`, 'gateway'),
      waitFor(`http://127.0.0.1:${ports.gatewayNoCache}/health/live`, 'gateway (no cache)'),
      ...(nginx ? [waitFor(at(ports.nginx).toString(), 'nginx')] : []),
    ]);

    const sample = await fetch(at(ports.gateway));
    const bytes = (await sample.arrayBuffer()).byteLength;
    print(
      `GET ${PATH}: ${bytes} bytes, Cache-Control "${sample.headers.get('cache-control')}"; ` +
        `${SECONDS} s per target after ${WARMUP_SECONDS} s warm-up, ${CONCURRENCY} concurrent keep-alive connections, ` +
        `node ${process.version}${nginx ? `, nginx ${NGINX_WORKERS} worker(s)` : ''}`,
    );
    const targets: [string, URL][] = [
      ['bare node http hello-world', at(ports.nodeHello, '/')],
      ['nest 12 hello-world', at(ports.nestHello, '/')],
      ['gateway, cached GET', at(ports.gateway)],
      ['public-status directly', at(ports.app)],
      ...(nginx ? ([['nginx reverse proxy (no cache)', at(ports.nginx)]] as [string, URL][]) : []),
      ['gateway, cache off (plain proxy)', at(ports.gatewayNoCache)],
    ];
    const figures = new Map<string, number>();
    for (const [name, url] of targets) {
      await load(name, url, WARMUP_SECONDS, false);
      figures.set(name, (await load(name, url, SECONDS)).rps);
    }
    const ratio = (a: string, b: string) => {
      const x = figures.get(a);
      const y = figures.get(b);
      if (x && y) print(`  ${a} / ${b}: ${(x / y).toFixed(2)}x`);
    };
    print('ratios:');
    ratio('gateway, cached GET', 'public-status directly');
    ratio('gateway, cached GET', 'nginx reverse proxy (no cache)');
    ratio('gateway, cached GET', 'bare node http hello-world');
    ratio('gateway, cached GET', 'nest 12 hello-world');
    ratio('gateway, cache off (plain proxy)', 'public-status directly');
    ratio('nginx reverse proxy (no cache)', 'public-status directly');
  } finally {
    agent.destroy();
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await pg.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  for (const c of children) c.kill('SIGTERM');
  process.exit(1);
});
