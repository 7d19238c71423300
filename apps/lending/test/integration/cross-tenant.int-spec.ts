import { readRouteManifest, withClient } from '@platform/testing';
import { applicationBody } from './applications-helpers';
import { idem, productBody } from './loans-helpers';
import { startLending, type Env, type LendingFixture } from './lending-fixture';

type Field = {
  name: string;
  required: boolean;
  kind: string;
  values?: string[];
  min?: number;
  fields?: Field[];
  items?: Field;
};
type Route = {
  method: string;
  path: string;
  access: string;
  raw?: boolean;
  query?: Field[];
  body?: Field[] | null;
};

/** A 1x1 PNG: the smallest file the documents area accepts. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Sample values of the fields that are not ids, valid for every route that has them. */
const SAMPLE: Record<string, unknown> = {
  label: 'probe',
  currency: 'KZT',
  country: 'KZ',
  holderName: 'Probe Holder',
  textVersion: 'v1',
  value: '900101300502',
  iban: 'KZ86125KZT5004100100',
  accountNumber: '1234567890',
  bankCode: '123456',
  productCode: 'CONSUMER_CASH',
  nationalId: '900101300500',
  firstName: 'Probe',
  lastName: 'Probe',
  channel: 'api',
  Type: 'identity_document',
  FileName: 'probe.png',
};

/** Which of B's records an id-named field or parameter names. */
const KIND_OF: Record<string, string> = {
  customerid: 'customer',
  applicationid: 'application',
  documentid: 'document',
  identifierid: 'identifier',
  bankaccountid: 'bankAccount',
  keyid: 'key',
  productid: 'product',
  loanid: 'loan',
  transactionid: 'transaction',
  subscriptionid: 'subscription',
  deliveryid: 'delivery',
};

/**
 * Issue 12's cross-tenant probe, driven by the route manifest (docs/routes/lending.json), so a route
 * added later is probed without touching this test: organization A's key calls every lending route
 * with organization B's ids wherever the route takes an id. Each such call must answer 404 (or 403),
 * every other answer must not contain any of B's ids, and B's rows must be byte-for-byte unchanged.
 */
describe('lending cross-tenant probe over every route (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let b: Record<string, string>;
  const ids: Record<string, string> = {};

  const snapshotOfB = () =>
    withClient(s.db.url, async (c) => {
      const tables = (
        await c.query<{ table: string }>(`
          SELECT t.relname AS table, min(x.attname) AS column
            FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
            JOIN pg_attribute x ON x.attrelid = t.oid AND x.attname IN ('organization_id', 'tenant_id')
           WHERE n.nspname = 'lending' AND t.relkind = 'r'
           GROUP BY 1 ORDER BY 1`)
      ).rows as { table: string; column: string }[];
      const out: Record<string, string> = {};
      // Tables keyed by organization_id, and libs' tables keyed by tenant_id (outbox, webhooks).
      for (const { table: t, column } of tables) {
        // The keys' request log grows with every call B itself makes; it is not B's business data.
        if (t === 'api_key_requests' || t === 'api_key_usage' || t === 'tenant_databases') continue;
        const r = await c.query<{ n: string; h: string | null }>(
          `SELECT count(*)::text AS n, md5(string_agg(x::text, ',' ORDER BY x::text)) AS h
             FROM lending.${t} x WHERE ${column} = 'bank-b'`,
        );
        out[t] = `${r.rows[0].n}:${r.rows[0].h ?? ''}`;
      }
      return out;
    });

  const sample = (f: Field): unknown => {
    const kind = f.name ? KIND_OF[f.name.toLowerCase()] : undefined;
    if (kind) return ids[kind];
    if (f.name && f.name in SAMPLE) return SAMPLE[f.name];
    if (f.kind === 'enum') return f.values?.[0];
    if (f.kind === 'int') return Math.max(1, f.min ?? 1);
    if (f.kind === 'date') return '2020-01-01';
    if (f.kind === 'boolean') return false;
    if (f.kind === 'array') return f.items ? [sample(f.items)] : [];
    if (f.kind === 'object') return bodyOf(f.fields ?? []);
    return 'probe';
  };
  const bodyOf = (fields: Field[]) =>
    Object.fromEntries(
      fields
        .filter((f) => f.required || KIND_OF[f.name.toLowerCase()] || f.name in SAMPLE)
        .map((f) => [f.name, sample(f)]),
    );
  /** Routes that look one of B's records up (a required id); an optional id is a list filter. */
  const looksUp = (r: Route) =>
    [...(r.query ?? []), ...(r.body ?? [])].some((f) => KIND_OF[f.name.toLowerCase()] && f.required);
  /** Bodies whose other fields a generic sample cannot satisfy (the area's own valid example). */
  const SPECIAL: Record<string, () => unknown> = {
    '/Applications/CreateApplication': () => applicationBody(ids.customer),
    '/Applications/UpdateApplication': () => ({
      ...applicationBody(ids.customer),
      applicationId: ids.application,
    }),
    // `channel` is a payment channel here, not the consents' sample value.
    '/Loans/MakePayment': () => ({ loanId: ids.loan, amount: 1, channel: 'card' }),
  };
  /** Valid bodies of routes that take no id of B (their answer must simply not hold B's data). */
  const PLAIN: Record<string, unknown> = {
    '/Customers/CreateCustomer': { kind: 'individual', individual: { firstName: 'Ay', lastName: 'Probe' } },
    '/Loans/CreateLoanProduct': productBody(),
    '/Webhooks/CreateSubscription': {
      url: 'https://93.184.216.34/hooks',
      events: ['lending.bureau.loan-disbursed'],
    },
  };

  beforeAll(async () => {
    // No webhook worker: B's deliveries must stay exactly as they are between the two snapshots.
    s = await startLending('lending_cross_tenant', { WEBHOOKS_WORKER_INTERVAL_MS: '0' });
    a = await s.organization('bank-a');
    b = await s.organization('bank-b');
    // B's records, made through the API as B.
    const ok = async <T>(p: Promise<{ status: number; body: Env<T> }>) => {
      const r = await p;
      expect([r.status, r.body.value.reason]).toEqual([expect.any(Number), undefined]);
      return r.body.value;
    };
    ids.customer = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Customers/CreateCustomer', {
          kind: 'individual',
          individual: { firstName: 'Bee', lastName: 'Secret', birthDate: '1990-01-01' },
          email: 'bee@example.com',
        }),
      )
    ).id;
    ids.identifier = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Customers/AddIdentifier', {
          customerId: ids.customer,
          type: 'national_id',
          country: 'KZ',
          value: '900101300502',
        }),
      )
    ).id;
    ids.bankAccount = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Customers/AddBankAccount', {
          customerId: ids.customer,
          format: 'iban',
          iban: 'KZ86125KZT5004100100',
          holderName: 'Bee Secret',
          currency: 'KZT',
        }),
      )
    ).id;
    await ok(
      s.call(b, 'POST', '/Customers/GiveConsent', {
        customerId: ids.customer,
        type: 'personal_data_processing',
        textVersion: 'v1',
        channel: 'api',
      }),
    );
    const upload = await fetch(
      `${s.base}/Customers/UploadDocument?CustomerId=${ids.customer}&Type=identity_document&FileName=b.png`,
      { method: 'POST', headers: { ...b, 'Content-Type': 'image/png' }, body: PNG },
    );
    ids.document = ((await upload.json()) as Env<{ id: string }>).value.id;
    ids.application = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Applications/CreateApplication', applicationBody(ids.customer)),
      )
    ).id;
    await ok(s.call(b, 'POST', '/Applications/SubmitApplication', { applicationId: ids.application }));
    await ok(s.call(b, 'POST', '/Applications/RunChecks', { applicationId: ids.application }));
    ids.product = (await ok(s.call<{ id: string }>(b, 'POST', '/Loans/CreateLoanProduct', productBody()))).id;
    ids.loan = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Loans/CreateLoan', {
          applicationId: ids.application,
          productId: ids.product,
        }),
      )
    ).id;
    // B's webhook subscription, which the disbursement gives a delivery.
    ids.subscription = (
      await ok(
        s.call<{ id: string }>(b, 'POST', '/Webhooks/CreateSubscription', {
          url: 'https://93.184.216.34/b-hooks',
          events: ['lending.bureau.loan-disbursed'],
        }),
      )
    ).id;
    await ok(s.call(idem(b), 'POST', '/Loans/DisburseLoan', { loanId: ids.loan }));
    ids.delivery = (
      await ok(s.call<{ items: { id: string }[] }>(b, 'GET', '/Webhooks/GetDeliveries'))
    ).items[0].id;
    ids.transaction = (
      await ok(
        s.call<{ transactionId: string }>(idem(b), 'POST', '/Loans/MakePayment', {
          loanId: ids.loan,
          amount: 1000,
        }),
      )
    ).transactionId;
    const keys = await ok(s.call<{ items: { keyId: string }[] }>(b, 'GET', '/ApiKeys/GetKeys'));
    ids.key = keys.items[0].keyId;
    for (const [k, v] of Object.entries(ids)) expect([k, typeof v]).toEqual([k, 'string']);
  }, 120_000);

  afterAll(async () => {
    await s?.close();
  });

  it("answers every route's probe with B's ids as unknown, and changes nothing of B's", async () => {
    const before = await snapshotOfB();
    const routes = (readRouteManifest('lending') as unknown as Route[]).filter(
      (r) => r.access === 'authenticated' && !r.path.startsWith('/health'),
    );
    expect(routes.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const r of routes) {
      const query = new URLSearchParams();
      for (const q of r.query ?? [])
        if (q.required || KIND_OF[q.name.toLowerCase()]) query.set(q.name, String(sample(q)));
      const url = `${s.base}${r.path}${query.size ? `?${query}` : ''}`;
      // Money operations need an Idempotency-Key before anything else; every route gets a fresh one.
      const headers = idem(a);
      const init: RequestInit = { method: r.method, headers };
      if (r.method === 'POST' && (r.raw || !r.body)) {
        init.body = PNG;
        init.headers = { ...headers, 'Content-Type': 'image/png' };
      } else if (r.method === 'POST') {
        init.body = JSON.stringify(SPECIAL[r.path]?.() ?? PLAIN[r.path] ?? bodyOf(r.body ?? []));
        init.headers = { ...headers, 'Content-Type': 'application/json' };
      }
      const res = await fetch(url, init);
      const text = await res.text();
      if (looksUp(r) || SPECIAL[r.path]) {
        if (res.status !== 404 && res.status !== 403)
          wrong.push(`${r.method} ${r.path}: ${res.status} ${text.slice(0, 200)}`);
      } else if (res.status >= 400 && res.status !== 404) {
        // An optional id is a filter: an empty answer or a 404 for B's id are both right.
        wrong.push(`${r.method} ${r.path}: ${res.status} ${text.slice(0, 200)}`);
      }
      // A refusal may repeat the id the caller sent; an answer that serves data must not hold B's.
      if (res.status < 400)
        for (const [kind, id] of Object.entries(ids))
          if (text.includes(id)) wrong.push(`${r.method} ${r.path}: answers B's ${kind} id (${res.status})`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotOfB()).toEqual(before);
    // B's key still works and still sees its own records.
    const mine = await s.call<{ id: string }>(b, 'GET', `/Customers/GetCustomer?CustomerId=${ids.customer}`);
    expect([mine.status, mine.body.value.id]).toEqual([200, ids.customer]);
  });

  it("refuses, in the database itself, a row of A that names B's customer, application or loan", async () => {
    // As the connecting superuser (row-level security bypassed): only the composite keys stand.
    const attempt = (sql: string, params: unknown[]) =>
      withClient(s.db.url, (c) => c.query(sql, params)).then(
        () => 'written',
        (err: { code?: string }) => err.code,
      );
    expect(
      await attempt(
        `INSERT INTO lending.applications (organization_id, status, customer_id) VALUES ('bank-a', 'draft', $1)`,
        [ids.customer],
      ),
    ).toBe('23503');
    expect(
      await attempt(
        // B's checks moved under A while still naming B's application.
        `UPDATE lending.application_checks SET organization_id = 'bank-a' WHERE application_id = $1`,
        [ids.application],
      ),
    ).toBe('23503');
    expect(
      await attempt(
        // A's ledger transaction on B's loan, and A's loan on B's product.
        `INSERT INTO lending.ledger_transactions (organization_id, loan_id, seq, kind, amount, value_date, details)
         VALUES ('bank-a', $1, 1, 'repayment', 1, current_date, '{}')`,
        [ids.loan],
      ),
    ).toBe('23503');
    expect(
      await attempt(`UPDATE lending.loans SET organization_id = 'bank-a' WHERE id = $1`, [ids.loan]),
    ).toBe('23503');
  });
});
