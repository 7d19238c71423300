/**
 * The CalDAV bench against our own server, started here the way the other benches start our apps:
 * the six built apps as processes (`launchSystem`) on the embedded stack (throwaway PostgreSQL, the
 * librdkafka mock broker), the demo account seeded with the calendar's admin CLI, a person signed in
 * with a PlatformSession this script signs, and an app password for them. Then `runCaldavBench` with
 * that endpoint: Radicale, then `measureOurs` (the timed 10,000-event load and the same REPORTs), and
 * the ratio.
 *
 * Run: npm run build && node -r ./dist/scripts/register-paths.js dist/bench/caldav/serve-ours.js
 * (BENCH_CALDAV_VIA=calendar goes to the calendar app directly instead of through the gateway).
 */
import { resolve } from 'node:path';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { launchSystem, runAdmin } from '@platform/dev-infra';
import { runCaldavBench } from '../caldav.bench';
import { startBenchStack } from '../shared/stack';
import type { CaldavEndpoint } from './client';

const DIST = resolve(__dirname, '../..');
const SESSION_ISSUER = 'https://id.caldav-bench.local';
/** A person of the demo account with no events of their own and none of a product: the calendar starts empty. */
const PERSON = 'caldav-bench-person';

export interface OursForBench {
  endpoint: CaldavEndpoint;
  stop(): Promise<void>;
}

/**
 * Starts our stack and returns a CalDAV endpoint on an empty calendar, or throws when the stack does
 * not serve CalDAV; nothing here stands in for a missing server. It needs, from the calendar app:
 *   - `POST /Calendar/app-passwords` with `PlatformSession: <JWT>` (RS256, audience `calendar`, the
 *     issuer and public key given to the apps as SESSION_ISSUER and SESSION_PUBLIC_KEY_PEM, subject =
 *     the person, claim `account_id`) and body `{ "label": ... }`, answering 201 with the envelope's
 *     `value: { username, password }` (HTTP Basic credentials for CalDAV);
 *   - the person's default calendar at `/dav/calendars/{accountId}/{personId}/default/`, which exists
 *     without being created (only MKCALENDAR calendars are stored) and answers PROPFIND Depth 0 with
 *     207 to those credentials;
 *   - with `via: 'gateway'` (the default, the way a client connects), the gateway routing `/dav/` to
 *     the calendar app. Its per-address rate limit stays on, multiplied out of reach: every request
 *     of the bench comes from 127.0.0.1.
 * The person is PERSON in the demo account of `calendar seed-demo`, whose seed makes no events: the
 * calendar is empty, as `measureOurs` requires.
 */
export async function startOursForBench(via: 'gateway' | 'calendar' = 'gateway'): Promise<OursForBench> {
  const stack = await startBenchStack('caldav-ours');
  const keys = await generateKeyPair('RS256');
  const sessionEnv = { SESSION_PUBLIC_KEY_PEM: await exportSPKI(keys.publicKey), SESSION_ISSUER };
  const system = await launchSystem({
    distDir: DIST,
    databaseUrl: stack.env.DATABASE_URL,
    kafkaBrokers: stack.env.KAFKA_BROKERS,
    ports: 'free',
    nodeEnv: 'test',
    env: { LOG_LEVEL: 'warn', ...sessionEnv },
    appEnv: { gateway: { GATEWAY_RATE_LIMIT: 'on', GATEWAY_RATE_LIMIT_MULTIPLIER: '1000000' } },
  });
  const stop = async () => {
    await system.stop();
    await stack.stop();
  };
  try {
    const seed = runAdmin(DIST, 'calendar', ['seed-demo'], stack.env) as { accountId: string };
    const session = await new SignJWT({ account_id: seed.accountId, roles: [] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(PERSON)
      .setIssuer(SESSION_ISSUER)
      .setAudience('calendar')
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(keys.privateKey);
    const baseUrl = via === 'gateway' ? system.gatewayUrl : system.apps.calendar.url;
    const created = await fetch(new URL('/Calendar/app-passwords', baseUrl), {
      method: 'POST',
      headers: { PlatformSession: session, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'CalDAV bench' }),
    });
    const body = (await created.json().catch(() => undefined)) as
      { value?: { username?: string; password?: string } } | undefined;
    const { username, password } = body?.value ?? {};
    if (created.status !== 201 || !username || !password)
      throw new Error(
        `POST /Calendar/app-passwords answered ${created.status}: ${JSON.stringify(body).slice(0, 300)}`,
      );
    const endpoint: CaldavEndpoint = {
      baseUrl,
      calendarPath: `/dav/calendars/${encodeURIComponent(seed.accountId)}/${encodeURIComponent(PERSON)}/default/`,
      username,
      password,
    };
    const probe = await fetch(new URL(endpoint.calendarPath, baseUrl), {
      method: 'PROPFIND',
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        depth: '0',
      },
    });
    const probeText = await probe.text();
    if (probe.status !== 207)
      throw new Error(
        `PROPFIND ${endpoint.calendarPath} (Depth 0) at ${baseUrl} answered ${probe.status}, not 207: ` +
          `the stack does not serve this CalDAV calendar. ${probeText.slice(0, 300)}`,
      );
    return { endpoint, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

if (require.main === module) {
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => process.exit(130));
  const via = process.env.BENCH_CALDAV_VIA === 'calendar' ? 'calendar' : 'gateway';
  (async () => {
    const ours = await startOursForBench(via);
    try {
      await runCaldavBench({ ours: ours.endpoint });
    } finally {
      await ours.stop();
    }
  })()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}
