import { rawRequest } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';

type Customer = {
  id: string;
  kind: string;
  status: string;
  statusName: string;
  statusReason: string | null;
  displayName: string;
  externalId: string | null;
  individual: Record<string, unknown> | null;
  business: Record<string, unknown> | null;
  email: string | null;
  phone: string | null;
  address: Record<string, unknown> | null;
  version: number;
  identifiers: unknown[];
  bankAccounts: unknown[];
};
type Page<T> = { items: T[]; total: number };

const person = (firstName: string, lastName: string, extra: Record<string, unknown> = {}) => ({
  kind: 'individual',
  individual: { firstName, lastName, birthDate: '1990-01-01', gender: 'female', citizenship: 'kz' },
  email: `${firstName.toLowerCase()}@example.kz`,
  phone: '+77011234567',
  preferredLanguage: 'kk',
  address: { country: 'KZ', city: 'Almaty', line1: 'Abai Ave 10' },
  ...extra,
});

describe('lending customers: profile, status and search (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let readOnly: Record<string, string>;

  beforeAll(async () => {
    s = await startLending('lending_customers');
    a = await s.organization('bank-a');
    readOnly = await s.organization('bank-ro', ['customers:read']);
  });

  afterAll(async () => {
    await s?.close();
  });

  const create = async (body: unknown) => {
    const r = await s.call<Customer>(a, 'POST', '/Customers/CreateCustomer', body);
    expect([r.status, r.body.value.reason]).toEqual([201, undefined]);
    return r.body.value;
  };

  it('creates an individual and a business, and reads them back', async () => {
    const ind = await create(person('Aigerim', 'Nurlanova', { externalId: 'crm-1' }));
    expect(ind).toMatchObject({
      kind: 'individual',
      status: 'active',
      statusName: 'Active',
      displayName: 'Aigerim Nurlanova',
      externalId: 'crm-1',
      individual: { firstName: 'Aigerim', birthDate: '1990-01-01', citizenship: 'KZ' },
      business: null,
      address: { country: 'KZ', city: 'Almaty', line1: 'Abai Ave 10' },
      version: 1,
      identifiers: [],
      bankAccounts: [],
    });
    const biz = await create({
      kind: 'business',
      business: {
        legalName: 'Dala Trade LLP',
        registrationNumber: '971240001315',
        registrationCountry: 'KZ',
      },
    });
    expect(biz).toMatchObject({ kind: 'business', displayName: 'Dala Trade LLP', individual: null });
    const got = await s.call<Customer>(
      a,
      'GET',
      `/Customers/GetCustomer?CustomerId=${ind.id}`,
      undefined,
      'ru',
    );
    expect(got.status).toBe(200);
    expect(got.body.value).toMatchObject({ id: ind.id, statusName: 'Активен', email: 'aigerim@example.kz' });
  });

  it('updates only the fields sent, clears with null, and refuses a stale version', async () => {
    const c = await create(person('Daniyar', 'Sadykov', { externalId: 'crm-2' }));
    const up = await s.call<Customer>(a, 'POST', '/Customers/UpdateCustomer', {
      customerId: c.id,
      version: 1,
      individual: { middleName: 'Bolatovich' },
      phone: null,
      address: null,
    });
    expect(up.status).toBe(200);
    expect(up.body.value).toMatchObject({
      version: 2,
      displayName: 'Daniyar Bolatovich Sadykov',
      individual: { firstName: 'Daniyar', lastName: 'Sadykov', middleName: 'Bolatovich' },
      phone: null,
      address: null,
      email: 'daniyar@example.kz',
    });
    const stale = await s.call(a, 'POST', '/Customers/UpdateCustomer', {
      customerId: c.id,
      version: 1,
      email: null,
    });
    expect([stale.status, stale.body.value.reason, stale.body.value.currentVersion]).toEqual([
      409,
      'CUSTOMER_VERSION_CONFLICT',
      2,
    ]);
    // kind is fixed at creation: not a field of the update.
    const kind = await s.call(a, 'POST', '/Customers/UpdateCustomer', { customerId: c.id, kind: 'business' });
    expect([kind.status, kind.body.value.fields?.map((f) => f.field)]).toEqual([400, ['kind']]);
    const mismatch = await s.call(a, 'POST', '/Customers/UpdateCustomer', {
      customerId: c.id,
      business: { legalName: 'X' },
    });
    expect([mismatch.status, mismatch.body.value.reason]).toEqual([400, 'CUSTOMER_PROFILE_KIND_MISMATCH']);
    const taken = await s.call(a, 'POST', '/Customers/UpdateCustomer', {
      customerId: c.id,
      externalId: 'crm-1',
    });
    expect([taken.status, taken.body.value.reason]).toEqual([409, 'CUSTOMER_EXTERNAL_ID_TAKEN']);
    const unknown = await s.call(a, 'POST', '/Customers/UpdateCustomer', {
      customerId: '00000000-0000-4000-8000-000000000000',
      email: null,
    });
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'CUSTOMER_NOT_FOUND']);
  });

  it('refuses a profile of the wrong kind, a missing one, dates out of range and a taken external id', async () => {
    const wrong = await s.call(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'business',
      business: { legalName: 'Y LLP' },
      individual: { firstName: 'A', lastName: 'B' },
    });
    expect([wrong.status, wrong.body.value.reason]).toEqual([400, 'CUSTOMER_PROFILE_KIND_MISMATCH']);
    const missing = await s.call(a, 'POST', '/Customers/CreateCustomer', { kind: 'individual' });
    expect([missing.status, missing.body.value.fields?.[0]]).toEqual([
      400,
      expect.objectContaining({ field: 'individual', rule: 'isDefined' }),
    ]);
    const future = await s.call(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      individual: { firstName: 'A', lastName: 'B', birthDate: '2999-01-01' },
    });
    expect([future.status, future.body.value.reason, future.body.value.field]).toEqual([
      400,
      'CUSTOMER_DATE_OUT_OF_RANGE',
      'birthDate',
    ]);
    const dup = await s.call(a, 'POST', '/Customers/CreateCustomer', {
      ...person('X', 'Y'),
      externalId: 'crm-1',
    });
    expect([dup.status, dup.body.value.reason]).toEqual([409, 'CUSTOMER_EXTERNAL_ID_TAKEN']);
  });

  it('answers hostile input with 400 and fields, never a 500', async () => {
    const bad = async (body: unknown, field: string) => {
      const r = await s.call(a, 'POST', '/Customers/CreateCustomer', body);
      expect([r.status, r.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
      expect(r.body.value.fields?.map((f) => f.field)).toContain(field);
    };
    await bad(person('Nul\u0000l', 'X'), 'individual.firstName');
    await bad(person('X'.repeat(5000), 'X'), 'individual.firstName');
    await bad(person('Line\nbreak', 'X'), 'individual.firstName');
    await bad(
      { ...person('A', 'B'), individual: { firstName: 'A', lastName: 'B', birthDate: '1990-02-30' } },
      'individual.birthDate',
    );
    await bad({ ...person('A', 'B'), phone: '8 701 123 45 67' }, 'phone');
    await bad({ ...person('A', 'B'), address: { country: 'XX', line1: 'x' } }, 'address.country');
    await bad({ ...person('A', 'B'), preferredLanguage: 'de' }, 'preferredLanguage');
    await bad({ ...person('A', 'B'), individual: 'text' }, 'individual');
    const proto = await rawRequest(`${s.base}/Customers/CreateCustomer`, {
      method: 'POST',
      headers: { ...a, 'content-type': 'application/json' },
      body: '{"kind":"individual","individual":{"firstName":"A","lastName":"B","__proto__":{"admin":true}}}',
    });
    expect([proto.status, (proto.json?.value as { reason: string }).reason]).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    const query = await s.call(a, 'GET', '/Customers/GetCustomer?CustomerId=not-a-uuid');
    expect([query.status, query.body.value.fields?.[0]?.field]).toEqual([400, 'CustomerId']);
    const search = await s.call(a, 'GET', `/Customers/GetCustomers?Search=${'x'.repeat(500)}`);
    expect([search.status, search.body.value.fields?.[0]?.field]).toEqual([400, 'Search']);
  });

  it('moves through the allowed statuses and refuses the others with a localised 409', async () => {
    const c = await create(person('Marat', 'Ospanov'));
    const move = (status: string, lang = 'en', extra: Record<string, unknown> = {}) =>
      s.call<Customer>(
        a,
        'POST',
        '/Customers/ChangeCustomerStatus',
        { customerId: c.id, status, ...extra },
        lang,
      );
    const blocked = await move('blocked', 'tr', { reason: 'Fraud check' });
    expect(blocked.body.value).toMatchObject({
      status: 'blocked',
      statusName: 'Engellendi',
      statusReason: 'Fraud check',
    });
    expect((await move('active')).body.value.status).toBe('active');
    const stale = await move('blocked', 'en', { version: 1 });
    expect([stale.status, stale.body.value.reason]).toEqual([409, 'CUSTOMER_VERSION_CONFLICT']);
    expect((await move('closed')).body.value).toMatchObject({ status: 'closed', statusName: 'Closed' });
    const illegal = await move('active', 'ru');
    expect([illegal.status, illegal.body.value.reason]).toEqual([409, 'CUSTOMER_STATUS_TRANSITION']);
    expect(illegal.body.error).toBe('Клиента нельзя перевести из статуса «Закрыт» в статус «Активен».');
    expect(illegal.body.value).toMatchObject({ from: 'closed', to: 'active', allowed: [] });
    const es = await move('blocked', 'es');
    expect(es.body.error).toBe('Un cliente no puede pasar de «Cerrado» a «Bloqueado».');
    // A closed customer's data no longer changes.
    const edit = await s.call(a, 'POST', '/Customers/UpdateCustomer', { customerId: c.id, email: null });
    expect([edit.status, edit.body.value.reason]).toEqual([409, 'CUSTOMER_CLOSED']);
  });

  it.each([
    ['en', ['Active', 'Blocked', 'Closed'], 'Uploaded'],
    ['ru', ['Активен', 'Заблокирован', 'Закрыт'], 'Загружен'],
    ['kk', ['Белсенді', 'Бұғатталған', 'Жабық'], 'Жүктелді'],
    ['uz', ['Faol', 'Bloklangan', 'Yopilgan'], 'Yuklangan'],
    ['tr', ['Aktif', 'Engellendi', 'Kapatıldı'], 'Yüklendi'],
    ['es', ['Activo', 'Bloqueado', 'Cerrado'], 'Cargado'],
  ])('names statuses in %s, with the allowed transitions', async (lang, names, uploaded) => {
    type Status = { status: string; statusName: string; next: { status: string; statusName: string }[] };
    const r = await s.call<Page<Status>>(a, 'GET', '/Customers/GetCustomerStatuses', undefined, lang);
    expect(r.body.value.total).toBe(3);
    expect(r.body.value.items.map((i) => [i.status, i.statusName])).toEqual([
      ['active', names[0]],
      ['blocked', names[1]],
      ['closed', names[2]],
    ]);
    expect(r.body.value.items[0].next).toEqual([
      { status: 'blocked', statusName: names[1] },
      { status: 'closed', statusName: names[2] },
    ]);
    expect(r.body.value.items[2].next).toEqual([]);
    const docs = await s.call<Page<Status>>(a, 'GET', '/Customers/GetDocumentStatuses', undefined, lang);
    expect(docs.body.value.items[0]).toMatchObject({ status: 'uploaded', statusName: uploaded });
  });

  it('searches by name, email, phone and external id, with kind and status filters, paged with the total', async () => {
    const org = await s.organization('bank-search');
    const make = (body: unknown) => s.call<Customer>(org, 'POST', '/Customers/CreateCustomer', body);
    for (let i = 0; i < 23; i++)
      await make(
        person(`Erlan${i}`, 'Zhumabekov', {
          email: `erlan${i}@mail.kz`,
          phone: `+7701555${String(i).padStart(4, '0')}`,
        }),
      );
    await make({ kind: 'business', business: { legalName: 'Zhumabekov & Sons LLP', tradeName: 'ZhS' } });
    await make({ ...person('Gulnara', 'Ahmetova'), externalId: 'EXT_100%' });
    const page = (q: string) => s.call<Page<Customer>>(org, 'GET', `/Customers/GetCustomers?${q}`);
    const first = await page('Search=zhumabekov&Offset=0&Count=10');
    expect([first.status, first.body.value.total, first.body.value.items.length]).toEqual([200, 24, 10]);
    const last = await page('Search=zhumabekov&Offset=20&Count=10');
    expect(last.body.value.items).toHaveLength(4);
    const all = new Set([...first.body.value.items, ...last.body.value.items].map((c) => c.id));
    expect(all.size).toBe(14);
    expect((await page('Search=zhumabekov&Kind=business')).body.value.total).toBe(1);
    expect((await page('Search=ERLAN7%40MAIL')).body.value.items.map((c) => c.email)).toEqual([
      'erlan7@mail.kz',
    ]);
    expect((await page('Search=%2B7%20701%20555%200012')).body.value.total).toBe(1);
    // LIKE wildcards in the search are plain characters.
    expect((await page('Search=100%25')).body.value.total).toBe(1);
    expect((await page('Search=%25')).body.value.total).toBe(1);
    expect((await page('Search=_')).body.value.total).toBe(1);
    expect((await page('Status=blocked')).body.value.total).toBe(0);
    expect((await page('Search=')).body.value.total).toBe(25);
    const bad = await page('Kind=robot&Count=0');
    expect(bad.body.value.fields?.map((f) => f.field).sort()).toEqual(['Count', 'Kind']);
  });

  it('reads with customers:read alone and refuses changes without customers:write', async () => {
    const r = await s.call(readOnly, 'GET', '/Customers/GetCustomers');
    expect(r.status).toBe(200);
    const w = await s.call(readOnly, 'POST', '/Customers/CreateCustomer', person('A', 'B'));
    expect([w.status, w.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
  });
});
