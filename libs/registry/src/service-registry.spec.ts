import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ADMIN_CLI_SERVICES,
  CORS_ORIGIN_SETTINGS,
  GATEWAY,
  GATEWAY_DEFAULT_LIMITS,
  GATEWAY_HEALTH_LIMITS,
  LAUNCH_ORDER,
  OWNED_SCHEMAS,
  ROUTED_SERVICES,
  SEED_DEMO_SERVICES,
  SERVICES,
  service,
  type GatewayExposure,
  type GatewayLimits,
  type ServiceDefinition,
} from './service-registry';

const APPS_DIR = resolve(__dirname, '../../../apps');
const all: readonly ServiceDefinition[] = SERVICES;
const names = all.map((s) => s.name);
const duplicates = (xs: readonly unknown[]) => xs.filter((x, i) => xs.indexOf(x) !== i);
const under = (path: string, prefix: string) => {
  const p = path.toLowerCase();
  const q = prefix.toLowerCase();
  return p === q || p.startsWith(`${q}/`);
};

describe('service registry', () => {
  it('has one entry per folder under apps/, and a folder for every entry', () => {
    const folders = readdirSync(APPS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...names].sort()).toEqual([...folders].sort());
  });

  it('names are unique and kebab-case', () => {
    expect(duplicates(names)).toEqual([]);
    for (const n of names) expect(n).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  it('ports are unique', () => {
    expect(duplicates(all.map((s) => s.port))).toEqual([]);
  });

  it('each app has a main.ts', () => {
    for (const s of all) expect(existsSync(join(APPS_DIR, s.name, 'src', 'main.ts'))).toBe(true);
  });

  it('has exactly one gateway, not behind itself; every other app is behind it', () => {
    expect(all.filter((s) => s.role === 'gateway').map((s) => s.name)).toEqual([GATEWAY.name]);
    expect(GATEWAY.gateway).toBeNull();
    expect(ROUTED_SERVICES.map((s) => s.name)).toEqual(names.filter((n) => n !== GATEWAY.name));
  });

  it('starts the services first and the gateway last, each once', () => {
    expect(LAUNCH_ORDER.at(-1)).toBe(GATEWAY.name);
    expect([...LAUNCH_ORDER].sort()).toEqual([...names].sort());
  });

  it('schemas are unique identifiers, owned by apps that have a database and migrations', () => {
    expect(duplicates(OWNED_SCHEMAS)).toEqual([]);
    for (const s of all) {
      const migrations = existsSync(join(APPS_DIR, s.name, 'src', 'migrations'));
      expect({ app: s.name, migrations }).toEqual({ app: s.name, migrations: s.schema !== null });
      if (s.schema === null) continue;
      expect(s.schema).toMatch(/^[a-z_][a-z0-9_]*$/);
      expect(s.database).toBe(true);
    }
    expect(OWNED_SCHEMAS).toEqual(all.flatMap((s) => (s.schema && s.outbox !== false ? [s.schema] : [])));
    expect(OWNED_SCHEMAS).not.toContain(service('gateway').schema);
  });

  it('an admin CLI exists exactly where declared, and seed-demo only with one', () => {
    for (const s of all) {
      const cli = existsSync(join(APPS_DIR, s.name, 'src', 'cli.ts'));
      expect({ app: s.name, cli }).toEqual({ app: s.name, cli: s.adminCli });
      if (s.seedDemo) expect(s.adminCli).toBe(true);
    }
    expect(ADMIN_CLI_SERVICES).toEqual(all.filter((s) => s.adminCli).map((s) => s.name));
    expect(SEED_DEMO_SERVICES).toEqual(all.filter((s) => s.seedDemo).map((s) => s.name));
  });

  it('upstream settings are unique SCREAMING_SNAKE names', () => {
    const envs = ROUTED_SERVICES.map((s) => s.gateway.upstreamEnv);
    expect(duplicates(envs)).toEqual([]);
    for (const e of envs) expect(e).toMatch(/^[A-Z][A-Z0-9_]*_URL$/);
  });

  it('gateway prefixes are clean, outside /health, and never claimed or nested by two services', () => {
    const owned = ROUTED_SERVICES.flatMap((s) =>
      s.gateway.prefixes.map((prefix) => ({ prefix, app: s.name })),
    );
    for (const { prefix } of owned) {
      expect(prefix).toMatch(/^(\/[A-Za-z0-9._~-]+)+$/);
      expect(under(prefix, '/health')).toBe(false);
    }
    const clashes = owned.flatMap((a) =>
      owned
        .filter((b) => a !== b && (under(a.prefix, b.prefix) || under(b.prefix, a.prefix)))
        .filter((b) => a.app !== b.app || a.prefix.toLowerCase() === b.prefix.toLowerCase())
        .map((b) => `${a.app} ${a.prefix} / ${b.app} ${b.prefix}`),
    );
    expect(clashes).toEqual([]);
  });

  it('internal paths lie outside every public prefix', () => {
    const prefixes = ROUTED_SERVICES.flatMap((s) => s.gateway.prefixes);
    for (const s of all) {
      for (const path of s.internalPaths) {
        expect(prefixes.filter((p) => under(path, p) || under(p, path))).toEqual([]);
      }
    }
  });

  it("gateway route policies lie under their own app's prefixes, each path once", () => {
    for (const s of ROUTED_SERVICES) {
      const exposure: GatewayExposure = s.gateway;
      const paths = (exposure.routes ?? []).map((r) => r.path.toLowerCase());
      expect(duplicates(paths)).toEqual([]);
      for (const r of exposure.routes ?? []) {
        expect(r.path).toMatch(/^(\/([A-Za-z0-9._~-]+|\*))+$/);
        // The wildcard is the id segment; the concrete part of the path says which prefix it extends.
        const concrete = r.path.replaceAll('*', 'x');
        expect({
          app: s.name,
          path: r.path,
          owned: exposure.prefixes.some((p) => under(concrete, p)),
        }).toEqual({
          app: s.name,
          path: r.path,
          owned: true,
        });
      }
    }
  });

  it('gateway limits are positive whole numbers, a probe has no body, and origin settings are named *_ORIGINS', () => {
    const limits: Partial<GatewayLimits>[] = [GATEWAY_DEFAULT_LIMITS, GATEWAY_HEALTH_LIMITS];
    for (const s of ROUTED_SERVICES) {
      const exposure: GatewayExposure = s.gateway;
      if (exposure.limits) limits.push(exposure.limits);
      for (const r of exposure.routes ?? []) if (r.limits) limits.push(r.limits);
    }
    for (const l of limits) {
      if (l.timeoutMs !== undefined) expect(Number.isInteger(l.timeoutMs) && l.timeoutMs >= 100).toBe(true);
      if (l.maxBodyBytes !== undefined)
        expect(Number.isInteger(l.maxBodyBytes) && l.maxBodyBytes >= 0).toBe(true);
    }
    expect(GATEWAY_HEALTH_LIMITS.maxBodyBytes).toBe(0);
    expect(CORS_ORIGIN_SETTINGS).toEqual(['WIDGET_ORIGINS']);
    for (const name of CORS_ORIGIN_SETTINGS) expect(name).toMatch(/^[A-Z][A-Z0-9_]*_ORIGINS$/);
  });

  it('per-IP rate limits are positive whole numbers, and `off` only under an app that has one', () => {
    for (const s of ROUTED_SERVICES) {
      const exposure: GatewayExposure = s.gateway;
      const budgets = [exposure.rateLimit, ...(exposure.routes ?? []).map((r) => r.rateLimit)];
      for (const b of budgets) {
        if (b === undefined) continue;
        if (b === 'off') {
          expect({ app: s.name, appLimited: exposure.rateLimit !== undefined }).toEqual({
            app: s.name,
            appLimited: true,
          });
          continue;
        }
        expect(Number.isInteger(b.requests) && b.requests >= 1).toBe(true);
        expect(Number.isInteger(b.windowSec) && b.windowSec >= 1 && b.windowSec <= 86_400).toBe(true);
      }
    }
  });

  it('only the gateway is probed for readiness through /live (its /ready aggregates every service)', () => {
    expect(all.filter((s) => (s.readinessProbe ?? 'ready') === 'live').map((s) => s.name)).toEqual([
      GATEWAY.name,
    ]);
  });

  it('consumed topics follow <domain>.<entity>.<event>.v<N>', () => {
    for (const s of all) {
      for (const topic of s.consumes)
        expect(topic).toMatch(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*){2}\.v[1-9]\d*$/);
    }
  });

  it('looks a service up by name', () => {
    expect(service('lending').schema).toBe('lending');
    expect(service('outbox-relay').gateway.upstreamEnv).toBe('OUTBOX_RELAY_URL');
  });
});
