/**
 * The apps of the platform, declared once. The gateway's route table and upstream settings, `npm start`,
 * `npm run admin`, the relay's default schemas, the Dockerfiles, docker-compose and the Kubernetes
 * manifests are derived from this list (scripts/gen-deploy.ts writes the files and CI checks them), so a
 * new service is one entry here plus its folder under apps/ (docs/adding-a-service.md).
 *
 * Tagged type:contracts: it imports nothing, so every app, lib and script may read it.
 */

/** What the gateway allows one request to a route (decision 0013). */
export interface GatewayLimits {
  /**
   * Milliseconds the upstream may stay silent (no byte either way) before the gateway answers 504
   * UPSTREAM_TIMEOUT. Streaming answers reset it on every chunk.
   */
  readonly timeoutMs: number;
  /**
   * Largest request body forwarded, in bytes. A bigger Content-Length is refused with 413 before a
   * byte is forwarded; a chunked body is counted while it streams and cut off at the limit.
   */
  readonly maxBodyBytes: number;
}

/**
 * Limits of every route that declares none. The gateway's `GATEWAY_UPSTREAM_TIMEOUT_MS` setting
 * replaces this timeout (not a route's own); 1 MiB is the services' own JSON body limit.
 */
/**
 * Node flags every app runs with (Dockerfile/ConfigMap `NODE_OPTIONS`, `npm start`, the tests' and
 * benches' launches). V8 otherwise grows its old space far past what the apps use before collecting
 * (a calendar at 358 MiB RSS after a write burst, a relay at 317 MiB); a 160 MiB old-space limit keeps
 * every app under issue 9's 250 MiB RSS. The young generation is set explicitly: V8 sizes it from the
 * old-space limit, and the small default it picks for 160 MiB cut the calendar's week query 3.5x
 * (1010 -> 285 req/s) through constant scavenges; with 16 MiB semi-spaces it is 1195 (decision 0015).
 */
export const RUNTIME_NODE_OPTIONS = '--max-old-space-size=160 --max-semi-space-size=16';

export const GATEWAY_DEFAULT_LIMITS: GatewayLimits = { timeoutMs: 30_000, maxBodyBytes: 1024 * 1024 };

/** /health/<service>/*: a probe answers fast and carries no body. */
export const GATEWAY_HEALTH_LIMITS: GatewayLimits = { timeoutMs: 5_000, maxBodyBytes: 0 };

/**
 * Which browsers may call a route from another origin. Routes without a group send no CORS headers at
 * all and the gateway refuses their preflights. The gateway answers every preflight itself.
 */
export type CorsGroup =
  /**
   * Any origin, never with credentials (`Access-Control-Allow-Origin: *`). GET and HEAD hold for the
   * route and every path under it; POST (with `Content-Type` allowed, for a JSON body) only for the
   * route's own path: an anonymous form posts to one endpoint, and a path added under it later must
   * not become writable from every website by inheritance (decision 0013).
   */
  | { readonly kind: 'public'; readonly methods: readonly ('GET' | 'HEAD' | 'POST')[] }
  /**
   * The origins a product registered: the product id is the first path segment after the route's
   * `path` (a preflight carries no header values, so the path is the only place it can come from) and
   * the gateway setting `originsSetting` maps product ids to origins
   * (`productId=https://a.example,https://b.example;other=https://c.example`).
   */
  | {
      readonly kind: 'per-product';
      readonly originsSetting: `${string}_ORIGINS`;
      readonly methods: readonly ('GET' | 'HEAD' | 'POST')[];
    };

/**
 * A per-client-IP request budget the gateway enforces on anonymous routes (decision 0022): at most
 * `requests` per fixed window of `windowSec` seconds per client address (IPv6 by /64), shared by every
 * gateway replica through PostgreSQL. Every request on the route counts, credentials or not (the gateway
 * cannot tell a real credential from a made-up header), cache hits included. Over it: 429
 * `RATE_LIMITED` with `Retry-After`. The gateway setting `GATEWAY_RATE_LIMIT_MULTIPLIER` scales it.
 */
export interface PerIpRateLimit {
  readonly requests: number;
  readonly windowSec: number;
}

/** Limits or CORS for part of an app's public paths. */
export interface GatewayRoutePolicy {
  /**
   * A path under one of the app's prefixes, matched like a prefix (case-insensitively, on a segment
   * boundary); `*` stands for exactly one segment (an id). The longest matching path wins.
   */
  readonly path: `/${string}`;
  readonly limits?: Partial<GatewayLimits>;
  readonly cors?: CorsGroup;
  /** Its own per-IP budget (a separate count from the app's), or `off` under an anonymous app's prefix. */
  readonly rateLimit?: PerIpRateLimit | 'off';
}

/** How partners reach an app through the gateway. */
export interface GatewayExposure {
  /** The gateway setting that holds the app's base URL; deployments set it, so a rename breaks them. */
  readonly upstreamEnv: `${string}_URL`;
  /**
   * Public path prefixes the app owns, matched case-insensitively on a segment boundary. Its health is
   * reachable at /health/<name>/live|ready without being listed here.
   */
  readonly prefixes: readonly `/${string}`[];
  /** Limits of all its prefixes where they differ from GATEWAY_DEFAULT_LIMITS. */
  readonly limits?: Partial<GatewayLimits>;
  /** CORS group of all its prefixes; none when absent. */
  readonly cors?: CorsGroup;
  /** Per-IP budget of all its prefixes (one count for all of them): for anonymous apps; none when absent. */
  readonly rateLimit?: PerIpRateLimit;
  /** Paths under its prefixes with their own limits or CORS group (they override the two above). */
  readonly routes?: readonly GatewayRoutePolicy[];
  /**
   * Headers every answer of the app carries that the gateway adds to its own refusals on the app's
   * paths (413, 429, 502-504), so a partner sees them on every answer (lending: its `Api-Version`).
   */
  readonly answerHeaders?: Readonly<Record<string, string>>;
}

export interface ServiceDefinition {
  /** The folder under apps/, and the Nx scope, image, Deployment and compose service name. */
  readonly name: string;
  /** Exactly one app is the gateway: it starts last and fronts every app whose `gateway` is set. */
  readonly role: 'gateway' | 'service';
  /** Port in development (`npm start`, the gateway's default upstream URLs); every container uses 3000. */
  readonly port: number;
  /** The PostgreSQL schema the app owns and migrates, fixed here rather than configured; null for none. */
  readonly schema: string | null;
  /** Connects to PostgreSQL (its own DATABASE_URL secret). True for the relay, which owns no schema. */
  readonly database: boolean;
  /**
   * False when its schema has no outbox table (the gateway's holds only rate-limit leases), so the relay
   * does not drain it. True when absent.
   */
  readonly outbox?: boolean;
  /** Talks to Kafka: gets KAFKA_BROKERS and a KAFKA_CLIENT_ID equal to its name. */
  readonly kafka: boolean;
  /** Has apps/<name>/src/cli.ts, run by `npm run admin -- <name> <command>`. */
  readonly adminCli: boolean;
  /** Its CLI has `seed-demo`, which `npm start` runs on a fresh development database. */
  readonly seedDemo: boolean;
  /** Base path of the app's own /live and /ready probes; the gateway maps /health/<name> onto it. */
  readonly health: `/${string}`;
  /**
   * Which of its probes the orchestrator's readiness check calls (Kubernetes readinessProbe); `ready`
   * when absent. The gateway says `live`: its /health/ready aggregates every service, and probing that
   * would take every gateway replica out of rotation whenever one service is down, turning one
   * service's outage into everyone's.
   */
  readonly readinessProbe?: 'ready' | 'live';
  /**
   * Secret settings the app needs in production (signing keys): each deployment reads
   * `<APP>_<NAME>` from `platform-secrets` into `<NAME>`; the dev overlay and compose get
   * development-only values (never the app's built-in development default, which production refuses).
   */
  readonly secrets?: readonly string[];
  /** Non-secret production settings of this app (its ConfigMap and compose environment). */
  readonly config?: Readonly<Record<string, string>>;
  /**
   * Writable directories the replicas share (the root filesystem is read-only): each is a
   * ReadWriteMany PersistentVolumeClaim `<app>-<name>` in Kubernetes and a named volume in compose,
   * mounted at `mountPath`, whose path the app reads from the setting `setting`.
   */
  readonly volumes?: readonly { name: string; mountPath: string; setting: string; size: string }[];
  /** Null only for the gateway itself. */
  readonly gateway: GatewayExposure | null;
  /** Routes served on the app's own port only, never through the gateway (metrics scrapes, operators). */
  readonly internalPaths: readonly `/${string}`[];
  /** Kafka topics it subscribes to (`<domain>.<entity>.<event>.v<N>`). */
  readonly consumes: readonly string[];
  /**
   * Connections the app opens to addresses outside the cluster besides PostgreSQL and Kafka (webhook
   * deliveries, mail, a key set or an object store): its NetworkPolicy lets these TCP ports out to public
   * addresses only (private ranges and link-local, where cloud metadata lives, stay closed). None when
   * absent (docs/decisions/0028).
   */
  readonly externalEgress?: readonly { readonly port: number; readonly why: string }[];
  /** Kubernetes sizing where it differs from the defaults of scripts/gen-deploy.ts (decision 0028). */
  readonly kubernetes?: {
    /** Memory the scheduler reserves per replica, in MiB: the app's measured RSS under load, rounded up. */
    readonly memoryRequestMiB?: number;
    /** Most replicas the HorizontalPodAutoscaler runs in production. */
    readonly maxReplicas?: number;
  };
}

export const SERVICES = [
  {
    name: 'gateway',
    role: 'gateway',
    port: 3000,
    // Per-IP rate-limit leases shared by the replicas (decision 0022); no business data, no outbox.
    schema: 'gateway',
    database: true,
    outbox: false,
    kafka: true,
    adminCli: false,
    seedDemo: false,
    health: '/health',
    readinessProbe: 'live',
    gateway: null,
    // Its /metrics is on a port of its own (METRICS_PORT), not routed and not on its public port.
    internalPaths: [],
    consumes: [],
  },
  {
    name: 'calendar',
    role: 'service',
    port: 3001,
    schema: 'calendar',
    secrets: ['CALENDAR_RSVP_SECRET'],
    // SESSION_JWKS_URL, when set: the identity provider's key set.
    externalEgress: [{ port: 443, why: 'SESSION_JWKS_URL' }],
    database: true,
    kafka: true,
    adminCli: true,
    seedDemo: true,
    health: '/health',
    gateway: {
      upstreamEnv: 'CALENDAR_URL',
      // CalDAV (RFC 4791) at /dav, found through RFC 6764's /.well-known/caldav (docs/caldav.md).
      prefixes: ['/Calendar', '/dav', '/.well-known/caldav'],
      routes: [
        // A guest answers an invitation with the signed token of their link and no credentials.
        { path: '/Calendar/rsvp', rateLimit: { requests: 30, windowSec: 600 } },
        // ICS feeds: the token in the path is the credential, and each fetch renders a calendar. Generous,
        // as one fetcher address (Google Calendar's, Outlook's) polls the feeds of many people.
        { path: '/Calendar/ics', rateLimit: { requests: 600, windowSec: 600 } },
        // The embeddable widget (spec: "an embeddable frame over the event and availability queries"),
        // at /Calendar/widget/<productId>/...: each product embeds it only in the sites it registered.
        {
          path: '/Calendar/widget',
          cors: { kind: 'per-product', originsSetting: 'WIDGET_ORIGINS', methods: ['GET', 'HEAD', 'POST'] },
        },
      ],
    },
    internalPaths: ['/metrics'],
    consumes: [],
  },
  {
    name: 'public-status',
    role: 'service',
    port: 3002,
    schema: 'public_status',
    secrets: ['SUBSCRIPTION_TOKEN_SECRET', 'WEBHOOKS_SECRET_KEY'],
    // Webhook deliveries (https only), monitoring checks (http and https) and subscriber mail
    // (SMTP_URL: submission 587 or implicit TLS 465).
    externalEgress: [
      { port: 443, why: 'webhook deliveries and https monitoring checks' },
      { port: 80, why: 'http monitoring checks' },
      { port: 587, why: 'SMTP_URL (submission)' },
      { port: 465, why: 'SMTP_URL (smtps)' },
    ],
    database: true,
    kafka: true,
    adminCli: true,
    seedDemo: true,
    health: '/health',
    gateway: {
      upstreamEnv: 'PUBLIC_STATUS_URL',
      prefixes: ['/PublicStatus'],
      // Read by anonymous browsers on any site (status widgets, the status page itself); a stuck
      // database must not hold thousands of reloads open for the default 30 s during an incident.
      limits: { timeoutMs: 10_000, maxBodyBytes: 16 * 1024 },
      cors: { kind: 'public', methods: ['GET', 'HEAD'] },
      // Anonymous: 10 reads a second per address on average, room for an office behind one NAT
      // reloading during an incident (cache hits count too, they cost the gateway alone).
      rateLimit: { requests: 600, windowSec: 60 },
      routes: [
        // Each subscription sends a confirmation mail or webhook: a far smaller budget. The subscribe
        // form of a status page embedded on any site posts JSON here from the browser: POST is allowed
        // cross-origin on this path alone (GET/HEAD as for the rest, e.g. Subscribe/confirm).
        {
          path: '/PublicStatus/Subscribe',
          cors: { kind: 'public', methods: ['GET', 'HEAD', 'POST'] },
          rateLimit: { requests: 10, windowSec: 3600 },
        },
        // The mailed confirmation link: the service's budget, not Subscribe's (else a subscription
        // would spend two of its ten; the link is a single-use token, nothing to send).
        { path: '/PublicStatus/Subscribe/confirm' },
        // Staff with API keys: their own limits are the keys', not an address's.
        { path: '/PublicStatus/manage', rateLimit: 'off' },
      ],
    },
    internalPaths: ['/metrics'],
    consumes: ['platform.service.health-reported.v1'],
  },
  {
    name: 'lending',
    role: 'service',
    port: 3003,
    schema: 'lending',
    // Seals the tenant databases' URLs (decision 0025); read only with LENDING_TENANCY_MODE
    // database-per-tenant, carried always so switching the mode is a ConfigMap change. And the webhook
    // subscription secrets' encryption key (docs/lending/webhooks.md).
    secrets: ['LENDING_TENANT_DB_KEY', 'WEBHOOKS_SECRET_KEY'],
    // Webhook deliveries (https only).
    externalEgress: [{ port: 443, why: 'webhook deliveries' }],
    database: true,
    kafka: true,
    adminCli: true,
    seedDemo: true,
    health: '/health',
    // Before go-live the external providers (bureau, AML registry, identity) run in stub mode (the
    // spec's "Limits and environment"): no live adapter exists yet, so production says so explicitly.
    config: { LENDING_PROVIDERS: 'stub', LENDING_ALLOW_STUB_PROVIDERS: 'true' },
    // Customer documents (docs/lending/customers.md, "Storage"): every replica reads and writes them.
    volumes: [
      {
        name: 'documents',
        mountPath: '/var/lib/lending/documents',
        setting: 'LENDING_DOCUMENTS_DIR',
        size: '10Gi',
      },
    ],
    gateway: {
      upstreamEnv: 'LENDING_URL',
      // The base path of every area in the lending spec's table (its one shown operation,
      // /Applications/GetApplications, sits under /applications: prefixes ignore case).
      prefixes: [
        '/applications',
        '/customers',
        '/loans',
        '/scoring',
        '/compliance',
        '/aml',
        '/collection',
        '/funding',
        '/reporting',
        '/tax-reporting',
        '/public/customer',
        // The organization's own partner keys (docs/lending/api-keys.md).
        '/apikeys',
        // Webhook subscriptions and their delivery log (docs/lending/webhooks.md).
        '/webhooks',
      ],
      routes: [
        // Customer documents are the file's bytes as the body (docs/lending/customers.md): the
        // service's LENDING_DOCUMENT_MAX_BYTES is at most this, a slow mobile upload gets 2 minutes.
        {
          path: '/Customers/UploadDocument',
          limits: { maxBodyBytes: 10 * 1024 * 1024, timeoutMs: 120_000 },
        },
      ],
      // The current lending API version (apps/lending/src/common/api-version.ts; a test keeps them equal).
      answerHeaders: { 'Api-Version': '1' },
    },
    internalPaths: ['/metrics'],
    consumes: [],
  },
  {
    name: 'verification',
    role: 'service',
    port: 3004,
    schema: 'verification',
    database: true,
    kafka: true,
    adminCli: true,
    seedDemo: true,
    health: '/health',
    // The webhook endpoint secrets' encryption key (docs/verification/webhooks.md) and the summary
    // reports' Ed25519 signing key (docs/verification/reports.md).
    secrets: ['WEBHOOKS_SECRET_KEY', 'REPORT_SIGNING_KEY', 'DOCUMENT_UPLOAD_SIGNING_SECRET'],
    // Webhook deliveries (https only) and, with VERIFICATION_STORAGE=s3, the object store.
    externalEgress: [{ port: 443, why: 'webhook deliveries, S3_ENDPOINT' }],
    // Case documents (docs/verification/documents.md, "Storage"): every replica reads and writes them.
    volumes: [
      {
        name: 'documents',
        mountPath: '/var/lib/verification/documents',
        setting: 'VERIFICATION_STORAGE_DIR',
        size: '20Gi',
      },
    ],
    // Before go-live provider checks run on the sandbox identity provider (docs/verification/checks.md):
    // no live adapter exists yet, so production says so explicitly.
    config: { IDENTITY_PROVIDER: 'sandbox', IDENTITY_PROVIDER_ALLOW_SANDBOX: 'true' },
    gateway: {
      upstreamEnv: 'VERIFICATION_URL',
      // The borrower upload portal (docs/verification/portal.md) lives beside the API.
      // The public report verification address (docs/verification/reports.md) too.
      prefixes: ['/api/v1', '/portal/v1', '/verify/v1'],
      routes: [
        // Identity documents and statements (scans, PDFs) are uploaded under the case's documents.
        {
          path: '/api/v1/verification-cases/*/documents',
          limits: { maxBodyBytes: 25 * 1024 * 1024, timeoutMs: 120_000 },
        },
        // The target of signed upload URLs (docs/verification/documents.md): the file's bytes as the
        // body, the same limits as the case's documents.
        {
          path: '/api/v1/document-uploads',
          limits: { maxBodyBytes: 25 * 1024 * 1024, timeoutMs: 120_000 },
        },
        // Building the summary and rendering its PDF take longer than a lookup.
        { path: '/api/v1/verification-cases/*/summary', limits: { timeoutMs: 60_000 } },
        // The borrower portal is anonymous (a one-time token in the path): pages, language switches and
        // Finish of one borrower, or an office behind one NAT, fit easily; guessing tokens does not.
        { path: '/portal/v1', rateLimit: { requests: 120, windowSec: 600 } },
        // A phone's photos and PDFs, the file's bytes as the body (the service takes at most this), a
        // slow mobile upload gets 2 minutes; a budget of its own, so retries do not lock out the page.
        {
          path: '/portal/v1/upload/*/documents',
          limits: { maxBodyBytes: 25 * 1024 * 1024, timeoutMs: 120_000 },
          rateLimit: { requests: 60, windowSec: 3600 },
        },
        // Report verification is anonymous (the QR code of a PDF): pages, language switches, the keys.
        { path: '/verify/v1', rateLimit: { requests: 120, windowSec: 60 } },
        // A PDF uploaded to be checked (an issued one is a few tens of KiB; the service takes 10 MiB).
        {
          path: '/verify/v1/reports/*/check',
          limits: { maxBodyBytes: 10 * 1024 * 1024, timeoutMs: 60_000 },
          rateLimit: { requests: 30, windowSec: 600 },
        },
        // Opening a report by password: a strict budget of its own, so guessing a password is slow.
        {
          path: '/verify/v1/reports/*/open',
          limits: { maxBodyBytes: 4096 },
          rateLimit: { requests: 5, windowSec: 900 },
        },
      ],
    },
    internalPaths: ['/metrics'],
    consumes: [],
  },
  {
    name: 'outbox-relay',
    role: 'service',
    port: 3005,
    schema: null,
    database: true,
    kafka: true,
    adminCli: false,
    seedDemo: false,
    health: '/health',
    // Only its health is public; lag and metrics are for the cluster's own monitoring.
    gateway: { upstreamEnv: 'OUTBOX_RELAY_URL', prefixes: [] },
    internalPaths: ['/metrics', '/relay/lag'],
    consumes: [],
    // 263 MiB RSS after relaying 20k events (issue 9's pipeline bench, README), above the 256 default.
    // Claims of one schema are serialised by an advisory lock (decision 0015): replicas beyond a few
    // wait on each other instead of adding throughput.
    kubernetes: { memoryRequestMiB: 320, maxReplicas: 3 },
  },
] as const satisfies readonly ServiceDefinition[];

export type Service = (typeof SERVICES)[number];
/** A typo in a service name does not compile. */
export type ServiceName = Service['name'];
export type GatewayService = Extract<Service, { role: 'gateway' }>;
/** An app the gateway forwards to. */
export type RoutedService = Extract<Service, { gateway: GatewayExposure }>;
export type RoutedServiceName = RoutedService['name'];
export type UpstreamEnv = RoutedService['gateway']['upstreamEnv'];
export type AdminCliService = Extract<Service, { adminCli: true }>;
export type AdminCliName = AdminCliService['name'];
export type SeedDemoName = Extract<Service, { seedDemo: true }>['name'];

export function service<N extends ServiceName>(name: N): Extract<Service, { name: N }> {
  const found = SERVICES.find((s) => s.name === name);
  if (!found) throw new Error(`no service ${name} in the registry`);
  return found as Extract<Service, { name: N }>;
}

const isGateway = (s: Service): s is GatewayService => s.role === 'gateway';

function theGateway(): GatewayService {
  const gateways = SERVICES.filter(isGateway);
  if (gateways.length !== 1)
    throw new Error(`the registry needs exactly one gateway, has ${gateways.length}`);
  return gateways[0];
}

export const GATEWAY: GatewayService = theGateway();

/** Start order: every service first, then the gateway with their addresses. */
export const LAUNCH_ORDER: readonly ServiceName[] = [
  ...SERVICES.filter((s) => !isGateway(s)).map((s) => s.name),
  GATEWAY.name,
];

export const ROUTED_SERVICES: readonly RoutedService[] = SERVICES.filter(
  (s): s is RoutedService => s.gateway !== null,
);

export const ADMIN_CLI_SERVICES: readonly AdminCliName[] = SERVICES.filter(
  (s): s is AdminCliService => s.adminCli,
).map((s) => s.name);

export const SEED_DEMO_SERVICES: readonly SeedDemoName[] = SERVICES.filter(
  (s): s is Extract<Service, { seedDemo: true }> => s.seedDemo,
).map((s) => s.name);

/** Every schema with an outbox table, in registry order: what the relay drains by default. */
export const OWNED_SCHEMAS: readonly string[] = SERVICES.flatMap((s: ServiceDefinition) =>
  s.schema === null || s.outbox === false ? [] : [s.schema],
);

/** Every CORS group the gateway applies, with where it applies (an app's prefixes or one route). */
function corsGroups(): CorsGroup[] {
  return ROUTED_SERVICES.flatMap((s): CorsGroup[] => {
    const exposure: GatewayExposure = s.gateway;
    return [
      ...(exposure.cors ? [exposure.cors] : []),
      ...(exposure.routes ?? []).flatMap((r) => (r.cors ? [r.cors] : [])),
    ];
  });
}

/** The gateway settings holding per-product origins (e.g. WIDGET_ORIGINS), each once. */
export const CORS_ORIGIN_SETTINGS: readonly `${string}_ORIGINS`[] = [
  ...new Set(corsGroups().flatMap((g) => (g.kind === 'per-product' ? [g.originsSetting] : []))),
];
