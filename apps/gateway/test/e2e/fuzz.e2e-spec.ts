import { resolve } from 'node:path';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { APPS, launchSystem, runAdmin, type AppName, type RunningSystem } from '@platform/dev-infra';
import {
  createTestDatabase,
  davRouteCases,
  oauthTokenErrors,
  readRouteManifest,
  runFuzz,
  type FuzzReport,
  type FuzzTarget,
  type RouteManifestEntry,
} from '@platform/testing';

const DIST = resolve(__dirname, '../../../../dist');
/** Fixed so a failure reproduces; FUZZ_SEED explores other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/**
 * The fuzz harness over every route of all six apps, as a partner or an attacker reaches them: through
 * the gateway (routes the gateway does not route, on the app's own port). Routes and their inputs
 * come from the committed route manifests (docs/routes/<app>.json, checked against the code by each
 * app's routes test), so a new route is fuzzed without anyone writing a case for it.
 */
describe('fuzz: every route of every app, hostile input', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let report: FuzzReport;

  beforeAll(async () => {
    db = await createTestDatabase('e2e_fuzz');
    const pair = await generateKeyPair('RS256');
    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
      NODE_ENV: 'test',
    };
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers: env.KAFKA_BROKERS,
      ports: 'free',
      nodeEnv: 'test',
      env: { LOG_LEVEL: 'error', RELAY_POLL_INTERVAL_MS: '500', CALENDAR_WRITE_LIMIT: '1000000' },
      appEnv: {
        calendar: {
          SESSION_PUBLIC_KEY_PEM: await exportSPKI(pair.publicKey),
          SESSION_ISSUER: 'https://id.test',
        },
      },
    });
    const calendar = runAdmin(DIST, 'calendar', ['seed-demo'], env) as {
      accountId: string;
      productId: string;
      apiKey: string;
    };
    const lending = runAdmin(DIST, 'lending', ['seed-demo'], env) as {
      organizationId: string;
      apiKey: string;
    };
    const verification = runAdmin(DIST, 'verification', ['seed-demo'], env) as {
      organizationId: string;
      apiKey: string;
    };
    const status = runAdmin(DIST, 'public-status', ['seed-demo'], env) as {
      businessId: string;
      apiKey: string;
    };
    // A person's app password, calendar and a product event they may read and not write: the CalDAV
    // routes get WebDAV requests with hostile XML and iCalendar bodies (dav-cases.ts), not JSON.
    const caldav = runAdmin(DIST, 'calendar', ['seed-demo-caldav'], env) as {
      username: string;
      password: string;
      calendarPath: string;
      productEventHref: string;
    };
    const home = caldav.calendarPath.replace(/[^/]+\/$/, '');
    const davCases = davRouteCases({
      app: 'calendar',
      origin: system.gatewayUrl,
      authorization: `Basic ${Buffer.from(`${caldav.username}:${caldav.password}`).toString('base64')}`,
      paths: {
        principal: home.replace('/dav/calendars/', '/dav/principals/'),
        home,
        calendar: caldav.calendarPath,
        readOnlyObject: caldav.productEventHref,
      },
    });
    const owner = await new SignJWT({ account_id: calendar.accountId, roles: ['owner'] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('fuzz-owner')
      .setIssuer('https://id.test')
      .setAudience('calendar')
      .setExpirationTime('30m')
      .sign(pair.privateKey);

    const credentials = (app: AppName, route: RouteManifestEntry): Record<string, string> | undefined => {
      if (route.access !== 'authenticated') return undefined;
      if (app === 'calendar') {
        return route.schemes.includes('product-key')
          ? { API_KEY: calendar.apiKey, AccountId: calendar.accountId, ProductId: calendar.productId }
          : { PlatformSession: owner, AccountId: calendar.accountId };
      }
      if (app === 'lending')
        return { 'X-Api-Key': lending.apiKey, 'Organization-Id': lending.organizationId };
      if (app === 'verification') {
        return { 'X-API-Key': verification.apiKey, 'Service-Organization-Id': verification.organizationId };
      }
      if (app === 'public-status') return { 'X-Api-Key': status.apiKey, 'Business-Id': status.businessId };
      return {};
    };
    const gw = system.gatewayUrl;
    const targets: FuzzTarget[] = APPS.map((app) => ({
      app,
      routes: readRouteManifest(app),
      credentials: (route) => credentials(app, route),
      // Health of a service is /health/<service>/... at the gateway; the relay's operational routes are
      // not routed by the gateway and are fuzzed on its own port.
      urlFor: (route) => {
        if (app === 'gateway') return `${gw}${route.path}`;
        if (route.path.startsWith('/health/'))
          return `${gw}/health/${app}${route.path.slice('/health'.length)}`;
        if (app === 'outbox-relay') return `${system.apps[app].url}${route.path}`;
        return `${gw}${route.path}`;
      },
      readyUrl: app === 'gateway' ? `${gw}/health/ready` : `${gw}/health/${app}/ready`,
      // The token endpoint answers RFC 6749 errors, not the envelope.
      errorProblems: app === 'verification' ? oauthTokenErrors('/api/v1/oauth/token') : undefined,
      routeCases: app === 'calendar' ? davCases : undefined,
    }));
    report = await runFuzz(
      targets,
      APPS.map((app) => system.apps[app].url),
      { seed: SEED, randomPerRoute: 40, concurrency: 8, timeoutMs: 15000 },
    );
    process.stdout.write(
      `\nfuzz (seed ${SEED}): ${report.apps} apps, ${report.routes} routes, ${report.requests} requests; ` +
        `statuses ${JSON.stringify(report.byStatus)}; ${report.failures.length} failures\n`,
    );
  }, 600000);

  afterAll(async () => {
    await system?.stop();
    await db?.drop();
  });

  it('covers every route of all six apps', () => {
    expect(report.apps).toBe(6);
    expect(report.routes).toBe(APPS.reduce((n, app) => n + readRouteManifest(app).length, 0));
    expect(report.requests).toBeGreaterThan(report.routes * 50);
  });

  it('never answers 5xx or hangs, and always answers in the envelope with the request id', () => {
    const grouped = new Map<string, string[]>();
    for (const f of report.failures) {
      const key = `${f.app} ${f.route}: ${f.problem.slice(0, 120)}`;
      grouped.set(key, [...(grouped.get(key) ?? []), f.label]);
    }
    expect([...grouped].map(([k, labels]) => `${k} [${labels.slice(0, 3).join(' | ')}]`)).toEqual([]);
  });

  it('leaves every app ready', () => {
    expect(report.notReady).toEqual([]);
  });
});
