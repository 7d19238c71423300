import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '@platform/testing';
import { startLending, type Env, type LendingFixture } from './lending-fixture';

type Page<T> = { items: T[]; total: number };

/** Every customers table's rows of one organization, as the database holds them (outside RLS). */
async function snapshot(url: string, org: string): Promise<Record<string, unknown[]>> {
  return withClient(url, async (c) => {
    const out: Record<string, unknown[]> = {};
    for (const table of [
      'customers',
      'customer_identifiers',
      'customer_documents',
      'customer_consents',
      'customer_bank_accounts',
    ])
      out[table] = (
        await c.query(
          `SELECT to_jsonb(t) AS row FROM lending.${table} t WHERE organization_id = $1 ORDER BY id`,
          [org],
        )
      ).rows.map((r) => r.row as unknown);
    return out;
  });
}

describe("lending customers: another organization's ids read as unknown (real PostgreSQL)", () => {
  let s: LendingFixture;
  let dir: string;
  let a: Record<string, string>;
  let b: Record<string, string>;
  const ids = { customer: '', identifier: '', document: '', bankAccount: '' };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lending-tenancy-docs-'));
    s = await startLending('lending_customer_tenancy', { LENDING_DOCUMENTS_DIR: dir });
    a = await s.organization('bank-a');
    b = await s.organization('bank-b');
    const c = await s.call<{ id: string }>(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      externalId: 'shared-ref',
      individual: { firstName: 'Aigerim', lastName: 'Nurlanova' },
    });
    ids.customer = c.body.value.id;
    const i = await s.call<{ id: string }>(a, 'POST', '/Customers/AddIdentifier', {
      customerId: ids.customer,
      type: 'national_id',
      country: 'KZ',
      value: '900101300007',
    });
    ids.identifier = i.body.value.id;
    const bank = await s.call<{ id: string }>(a, 'POST', '/Customers/AddBankAccount', {
      customerId: ids.customer,
      format: 'iban',
      iban: 'KZ86125KZT5004100100',
      holderName: 'Aigerim Nurlanova',
      currency: 'KZT',
    });
    ids.bankAccount = bank.body.value.id;
    await s.call(a, 'POST', '/Customers/GiveConsent', {
      customerId: ids.customer,
      type: 'marketing',
      textVersion: 'v1',
      channel: 'web',
    });
    const up = await fetch(`${s.base}/Customers/UploadDocument?CustomerId=${ids.customer}&Type=other`, {
      method: 'POST',
      headers: { ...a, 'Content-Type': 'application/pdf' },
      body: Buffer.from('%PDF-1.7\nsecret of bank a'),
    });
    ids.document = ((await up.json()) as Env<{ id: string }>).value.id;
    expect(Object.values(ids).every(Boolean)).toBe(true);
  });

  afterAll(async () => {
    await s?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers B's key on every route with A's ids exactly as for unknown ids, and A's rows stay as they were", async () => {
    const before = await snapshot(s.db.url, 'bank-a');
    const c = ids.customer;
    const probes: [string, string, unknown, string][] = [
      ['GET', `/Customers/GetCustomer?CustomerId=${c}`, undefined, 'CUSTOMER_NOT_FOUND'],
      [
        'POST',
        '/Customers/UpdateCustomer',
        { customerId: c, email: 'hijack@b.example' },
        'CUSTOMER_NOT_FOUND',
      ],
      ['POST', '/Customers/ChangeCustomerStatus', { customerId: c, status: 'closed' }, 'CUSTOMER_NOT_FOUND'],
      [
        'POST',
        '/Customers/AddIdentifier',
        { customerId: c, type: 'passport', country: 'TR', value: 'U12345678' },
        'CUSTOMER_NOT_FOUND',
      ],
      [
        'POST',
        '/Customers/RemoveIdentifier',
        { identifierId: ids.identifier },
        'CUSTOMER_IDENTIFIER_NOT_FOUND',
      ],
      [
        'POST',
        '/Customers/AddBankAccount',
        {
          customerId: c,
          format: 'iban',
          iban: 'TR330006100519786457841326',
          holderName: 'X',
          currency: 'TRY',
        },
        'CUSTOMER_NOT_FOUND',
      ],
      [
        'POST',
        '/Customers/RemoveBankAccount',
        { bankAccountId: ids.bankAccount },
        'CUSTOMER_BANK_ACCOUNT_NOT_FOUND',
      ],
      ['GET', `/Customers/GetBankAccounts?CustomerId=${c}`, undefined, 'CUSTOMER_NOT_FOUND'],
      [
        'POST',
        '/Customers/GiveConsent',
        { customerId: c, type: 'marketing', textVersion: 'v2', channel: 'api' },
        'CUSTOMER_NOT_FOUND',
      ],
      [
        'POST',
        '/Customers/WithdrawConsent',
        { customerId: c, type: 'marketing', channel: 'api' },
        'CUSTOMER_NOT_FOUND',
      ],
      ['GET', `/Customers/GetConsents?CustomerId=${c}`, undefined, 'CUSTOMER_NOT_FOUND'],
      ['GET', `/Customers/GetConsentHistory?CustomerId=${c}`, undefined, 'CUSTOMER_NOT_FOUND'],
      ['GET', `/Customers/GetDocuments?CustomerId=${c}`, undefined, 'CUSTOMER_NOT_FOUND'],
      [
        'POST',
        '/Customers/ReviewDocument',
        { documentId: ids.document, status: 'rejected' },
        'CUSTOMER_DOCUMENT_NOT_FOUND',
      ],
    ];
    for (const [method, path, body, reason] of probes) {
      const r = await s.call(b, method, path, body);
      expect([path, r.status, r.body.value.reason]).toEqual([path, 404, reason]);
    }
    const download = await fetch(`${s.base}/Customers/DownloadDocument?DocumentId=${ids.document}`, {
      headers: b,
    });
    const text = await download.text();
    expect([download.status, (JSON.parse(text) as Env).value.reason]).toEqual([
      404,
      'CUSTOMER_DOCUMENT_NOT_FOUND',
    ]);
    expect(text).not.toContain('secret of bank a');
    const upload = await fetch(`${s.base}/Customers/UploadDocument?CustomerId=${c}&Type=other`, {
      method: 'POST',
      headers: { ...b, 'Content-Type': 'application/pdf' },
      body: Buffer.from('%PDF-1.7\nplanted by b'),
    });
    expect([upload.status, ((await upload.json()) as Env).value.reason]).toEqual([404, 'CUSTOMER_NOT_FOUND']);

    expect(await snapshot(s.db.url, 'bank-a')).toEqual(before);
    expect(await snapshot(s.db.url, 'bank-b')).toEqual({
      customers: [],
      customer_identifiers: [],
      customer_documents: [],
      customer_consents: [],
      customer_bank_accounts: [],
    });
    // A still sees everything of its own.
    const mine = await s.call<{ identifiers: unknown[]; bankAccounts: unknown[] }>(
      a,
      'GET',
      `/Customers/GetCustomer?CustomerId=${c}`,
    );
    expect([mine.status, mine.body.value.identifiers.length, mine.body.value.bankAccounts.length]).toEqual([
      200, 1, 1,
    ]);
  });

  it('keeps searches, identifier and external-id uniqueness inside each organization', async () => {
    expect(
      (await s.call<Page<unknown>>(b, 'GET', '/Customers/GetCustomers?Search=Nurlanova')).body.value.total,
    ).toBe(0);
    expect(
      (await s.call<Page<unknown>>(b, 'GET', '/Customers/GetCustomers?Search=900101300007')).body.value.total,
    ).toBe(0);
    const bc = await s.call<{ id: string }>(b, 'POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      externalId: 'shared-ref',
      individual: { firstName: 'Other', lastName: 'Person' },
    });
    expect(bc.status).toBe(201);
    const same = await s.call(b, 'POST', '/Customers/AddIdentifier', {
      customerId: bc.body.value.id,
      type: 'national_id',
      country: 'KZ',
      value: '900101300007',
    });
    expect(same.status).toBe(201);
    expect((await s.call<Page<unknown>>(a, 'GET', '/Customers/GetCustomers')).body.value.total).toBe(1);
  });
});
