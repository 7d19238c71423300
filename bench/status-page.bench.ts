/**
 * Issue 11's yardstick: `GET /PublicStatus/StatusPage?business=platform` through the gateway as deployed
 * (micro-cache on, per-IP rate limit on, shared through PostgreSQL) next to a bare Node `http`
 * hello-world, in one run on this machine; then the ratio and the target (>= 0.30 of bare Node). The
 * rate limit runs with GATEWAY_RATE_LIMIT_MULTIPLIER high enough that one client never reaches it (all
 * load comes from 127.0.0.1), so every request still takes a token from its lease; a second gateway
 * with the limit off shows what the limit costs. wrk when installed, else the Node keep-alive client.
 *
 * BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONCURRENCY (32), BENCH_CLIENT=node.
 */
import { join, resolve } from 'node:path';
import { freePort, runAdmin } from '@platform/dev-infra';
import { LoadGenerator, print, type Figure } from './shared/load';
import { CpuWatch, Processes, waitFor } from './shared/processes';
import { startBenchStack } from './shared/stack';
import { measureWithWrk, wrkPath } from './shared/wrk';

const DIST = resolve(__dirname, '..');
const PATH = '/PublicStatus/StatusPage?business=platform';
const TARGET = 0.3;

async function main(): Promise<void> {
  const stack = await startBenchStack('status');
  const { env } = stack;

  const ports = {
    node: await freePort(),
    app: await freePort(),
    gateway: await freePort(),
    noLimit: await freePort(),
  };
  const procs = new Processes();
  const lg = new LoadGenerator();
  const app = (entry: string) => ['-r', join(DIST, 'scripts/register-paths.js'), join(DIST, entry)];
  try {
    procs.helloWorld(DIST, 'node', ports.node);
    procs.start(process.execPath, app('apps/public-status/src/main.js'), { ...env, PORT: String(ports.app) });
    await waitFor(`http://127.0.0.1:${ports.app}/health/ready`, 'public-status');
    runAdmin(DIST, 'public-status', ['seed-demo'], env);
    const gatewayEnv = { ...env, PUBLIC_STATUS_URL: `http://127.0.0.1:${ports.app}` };
    procs.start(process.execPath, app('apps/gateway/src/main.js'), {
      ...gatewayEnv,
      PORT: String(ports.gateway),
      GATEWAY_RATE_LIMIT: 'on',
      // 600/60 s x 1e6: one address never reaches it; leases of GATEWAY_RATE_LIMIT_LEASE_MAX (1000).
      GATEWAY_RATE_LIMIT_MULTIPLIER: '1000000',
    });
    procs.start(process.execPath, app('apps/gateway/src/main.js'), {
      ...gatewayEnv,
      PORT: String(ports.noLimit),
      GATEWAY_RATE_LIMIT: 'off',
    });
    await Promise.all([
      waitFor(`http://127.0.0.1:${ports.node}/`, 'node hello-world'),
      waitFor(`http://127.0.0.1:${ports.gateway}/health/live`, 'gateway'),
      waitFor(`http://127.0.0.1:${ports.noLimit}/health/live`, 'gateway (limit off)'),
    ]);
    const at = (port: number, path = PATH) => new URL(`http://127.0.0.1:${port}${path}`);
    const sample = await fetch(at(ports.gateway));
    const bytes = (await sample.arrayBuffer()).byteLength;
    if (sample.status !== 200) throw new Error(`GET ${PATH} answered ${sample.status}`);
    const wrk = process.env.BENCH_CLIENT === 'node' ? undefined : wrkPath();
    print(
      `GET ${PATH}: ${bytes} bytes, Cache-Control "${sample.headers.get('cache-control')}", ` +
        `RateLimit-Limit ${sample.headers.get('ratelimit-limit')}; client ${wrk ? 'wrk' : 'node keep-alive'}, node ${process.version}`,
    );
    // Each figure with the CPU other processes took meanwhile: on a shared box a low figure may be theirs.
    const cpu = new CpuWatch();
    const measure = async (name: string, url: URL): Promise<Figure> => {
      const from = cpu.snapshot();
      const figure = await (wrk ? measureWithWrk(wrk, name, url) : lg.measure(name, () => lg.call({ url })));
      print(`  others' CPU during "${name}": ${cpu.othersSince(from)}% of the machine`);
      return figure;
    };
    const node = await measure('bare node http hello-world', at(ports.node, '/'));
    const gateway = await measure('StatusPage via gateway (cache + limit)', at(ports.gateway));
    const noLimit = await measure('StatusPage via gateway (cache, no limit)', at(ports.noLimit));
    // The "today" figure was taken on Products: the same path, printed for comparison.
    const products = await measure(
      'Products via gateway (cache + limit)',
      at(ports.gateway, '/PublicStatus/Products?business=platform'),
    );
    const after = await fetch(at(ports.gateway));
    print(`after the run: ${after.status}, RateLimit-Remaining ${after.headers.get('ratelimit-remaining')}`);
    const ratio = gateway.rps / node.rps;
    print(
      `ratio gateway (cache + limit) / bare node: ${ratio.toFixed(2)} (target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'})`,
    );
    print(`ratio gateway (cache, no limit) / bare node: ${(noLimit.rps / node.rps).toFixed(2)}`);
    print(`ratio Products via gateway (cache + limit) / bare node: ${(products.rps / node.rps).toFixed(2)}`);
    print(
      `cost of the rate limit: ${((1 - gateway.rps / noLimit.rps) * 100).toFixed(1)}% of the no-limit figure`,
    );
  } finally {
    lg.destroy();
    procs.stopAll();
    await new Promise((r) => setTimeout(r, 500));
    await stack.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
