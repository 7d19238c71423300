import { DataSource } from 'typeorm';
import { asOrganizationId } from '@platform/tenancy';
import { withClient } from '@platform/testing';
import { TenantData } from '../../src/tenancy/tenant-data';
import { startLending, type LendingFixture } from './lending-fixture';

type Identifier = {
  id: string;
  customerId: string;
  type: string;
  country: string;
  value: string;
  scheme: string;
  /** Error details. */
  field?: string;
};
type Consent = {
  id: string;
  type: string;
  status: string;
  statusName: string;
  textVersion: string;
  channel: string;
  at: string;
  ipAddress: string | null;
};
type BankAccount = {
  id: string;
  format: string;
  iban: string | null;
  accountNumber: string | null;
  country: string;
  currency: string;
  primary: boolean;
  scheme: string;
  /** Error details. */
  check?: string;
};
type Page<T> = { items: T[]; total: number };

describe('lending customers: identifiers, consents, bank accounts (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let customerId: string;

  beforeAll(async () => {
    s = await startLending('lending_customer_records');
    a = await s.organization('bank-a');
    customerId = await newCustomer();
  });

  afterAll(async () => {
    await s?.close();
  });

  async function newCustomer(): Promise<string> {
    const r = await s.call<{ id: string }>(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      individual: { firstName: 'Aigerim', lastName: 'Nurlanova' },
    });
    return r.body.value.id;
  }

  const addIdentifier = (body: Record<string, unknown>, lang = 'en') =>
    s.call<Identifier>(a, 'POST', '/Customers/AddIdentifier', { customerId, ...body }, lang);

  describe('identifiers', () => {
    it.each([
      ['national_id', 'KZ', '900101300007', 'KZ_IIN'],
      ['tax_id', 'KZ', '971240001315', 'KZ_IIN_BIN'],
      ['national_id', 'UZ', '30101902700014', 'UZ_PINFL'],
      ['national_id', 'TR', '10000000146', 'TR_TCKN'],
      ['tax_id', 'TR', '4540536920', 'TR_VKN'],
      ['national_id', 'ES', '12345678Z', 'ES_DNI'],
      ['national_id', 'ES', 'x1234567l', 'ES_NIE'],
      ['tax_id', 'RU', '7707083893', 'RU_INN'],
      ['tax_id', 'RU', '500100732259', 'RU_INN'],
      ['passport', 'UZ', 'AA 1234567', 'UZ_PASSPORT'],
      ['passport', 'DE', 'C01X00T47', 'GENERIC_PASSPORT'],
      ['tax_id', 'FR', '30 23 217 600 053', 'GENERIC_TAX_ID'],
    ])('accepts %s %s %s (%s)', async (type, country, value, scheme) => {
      const r = await addIdentifier({ type, country, value });
      expect([r.status, r.body.value.reason]).toEqual([201, undefined]);
      expect(r.body.value).toMatchObject({
        type,
        country,
        scheme,
        value: value.replace(/\s/g, '').toUpperCase(),
      });
    });

    it.each([
      ['national_id', 'KZ', '900101300008', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['national_id', 'KZ', '9001013000', 'CUSTOMER_IDENTIFIER_FORMAT'],
      ['national_id', 'UZ', '30101902700015', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['national_id', 'TR', '10000000147', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['tax_id', 'TR', '4540536921', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['national_id', 'ES', '12345678A', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['tax_id', 'RU', '7707083894', 'CUSTOMER_IDENTIFIER_CHECKSUM'],
      ['tax_id', 'RU', '77070838', 'CUSTOMER_IDENTIFIER_FORMAT'],
      ['passport', 'KZ', 'A1234567', 'CUSTOMER_IDENTIFIER_FORMAT'],
    ])('refuses %s %s %s with %s', async (type, country, value, reason) => {
      const r = await addIdentifier({ type, country, value });
      expect([r.status, r.body.value.reason, r.body.value.field]).toEqual([400, reason, 'value']);
    });

    it('explains a refusal in the request language', async () => {
      const r = await addIdentifier({ type: 'tax_id', country: 'RU', value: '7707083894' }, 'ru');
      expect(r.body.error).toBe(
        'Номер RU_INN не проходит проверку контрольной цифры; проверьте, нет ли опечатки.',
      );
      const kk = await addIdentifier({ type: 'national_id', country: 'TR', value: '123' }, 'kk');
      expect(kk.body.error).toBe('national_id мәні TR елінде қабылданған пішімге сәйкес келмейді (TR_TCKN).');
    });

    it('refuses an unknown country, a bad date order and a duplicate in the organization (409)', async () => {
      const country = await addIdentifier({ type: 'passport', country: 'XX', value: 'AB123456' });
      expect([country.status, country.body.value.fields?.[0]?.field]).toEqual([400, 'country']);
      const dates = await addIdentifier({
        type: 'passport',
        country: 'TR',
        value: 'U12345678',
        issueDate: '2020-01-01',
        expiryDate: '2019-12-31',
      });
      expect([dates.status, dates.body.value.reason, dates.body.value.field]).toEqual([
        400,
        'CUSTOMER_DATE_OUT_OF_RANGE',
        'expiryDate',
      ]);
      const other = await newCustomer();
      const dup = await s.call(a, 'POST', '/Customers/AddIdentifier', {
        customerId: other,
        type: 'national_id',
        country: 'KZ',
        value: '9001 0130 0007',
      });
      expect([dup.status, dup.body.value.reason, dup.body.value.existingCustomerId]).toEqual([
        409,
        'CUSTOMER_IDENTIFIER_TAKEN',
        customerId,
      ]);
      // The same number issued by another country is another identifier.
      const elsewhere = await s.call(a, 'POST', '/Customers/AddIdentifier', {
        customerId: other,
        type: 'national_id',
        country: 'DE',
        value: '900101300007',
      });
      expect(elsewhere.status).toBe(201);
    });

    it('lists identifiers in GetCustomer, finds the customer by one, and removes one', async () => {
      const got = await s.call<{ identifiers: Identifier[] }>(
        a,
        'GET',
        `/Customers/GetCustomer?CustomerId=${customerId}`,
      );
      const iin = got.body.value.identifiers.find((i) => i.scheme === 'KZ_IIN') as Identifier;
      expect(got.body.value.identifiers.length).toBeGreaterThanOrEqual(12);
      // Any type and country: the DE identifier with the same number is found too.
      const found = await s.call<Page<{ id: string }>>(
        a,
        'GET',
        '/Customers/GetCustomers?Search=900101-300007',
      );
      expect(found.body.value.total).toBe(2);
      expect(found.body.value.items.map((c) => c.id)).toContain(customerId);
      const removed = await s.call<Identifier>(a, 'POST', '/Customers/RemoveIdentifier', {
        identifierId: iin.id,
      });
      expect([removed.status, removed.body.value.id]).toEqual([200, iin.id]);
      const again = await s.call(a, 'POST', '/Customers/RemoveIdentifier', { identifierId: iin.id });
      expect([again.status, again.body.value.reason]).toEqual([404, 'CUSTOMER_IDENTIFIER_NOT_FOUND']);
      const after = await s.call<Page<{ id: string }>>(
        a,
        'GET',
        '/Customers/GetCustomers?Search=900101300007',
      );
      expect(after.body.value.items.map((c) => c.id)).not.toContain(customerId);
    });
  });

  describe('consents', () => {
    const give = (body: Record<string, unknown>, lang = 'en') =>
      s.call<Consent>(a, 'POST', '/Customers/GiveConsent', { customerId, channel: 'web', ...body }, lang);
    const withdraw = (body: Record<string, unknown>, lang = 'en') =>
      s.call<Consent>(
        a,
        'POST',
        '/Customers/WithdrawConsent',
        { customerId, channel: 'mobile', ...body },
        lang,
      );

    it('keeps every give and withdraw as history; the latest per type is what stands', async () => {
      const g1 = await give({
        type: 'personal_data_processing',
        textVersion: '2026-01',
        ipAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0',
        evidence: 'otp-session:8f3a21',
      });
      expect([g1.status, g1.body.value]).toEqual([
        201,
        expect.objectContaining({
          status: 'given',
          statusName: 'Given',
          ipAddress: '203.0.113.7',
          channel: 'web',
        }),
      ]);
      const same = await give({ type: 'personal_data_processing', textVersion: '2026-01' });
      expect([same.status, same.body.value.reason]).toEqual([409, 'CUSTOMER_CONSENT_ALREADY_GIVEN']);
      await give({ type: 'personal_data_processing', textVersion: '2026-02' }); // a new text version
      await give({ type: 'marketing', textVersion: 'v1', channel: 'branch' });
      const w = await withdraw({ type: 'marketing' }, 'uz');
      expect(w.body.value).toMatchObject({
        status: 'withdrawn',
        statusName: 'Qaytarib olingan',
        textVersion: 'v1',
      });
      const twice = await withdraw({ type: 'marketing' }, 'es');
      expect([twice.status, twice.body.value.reason]).toEqual([409, 'CUSTOMER_CONSENT_NOT_GIVEN']);
      expect(twice.body.error).toBe('No hay un consentimiento marketing vigente que retirar.');
      const never = await withdraw({ type: 'credit_bureau_request' });
      expect(never.body.value.reason).toBe('CUSTOMER_CONSENT_NOT_GIVEN');

      const current = await s.call<Page<Consent>>(
        a,
        'GET',
        `/Customers/GetConsents?CustomerId=${customerId}`,
        undefined,
        'tr',
      );
      expect(current.body.value.items.map((c) => [c.type, c.status, c.statusName, c.textVersion])).toEqual([
        ['marketing', 'withdrawn', 'Geri alındı', 'v1'],
        ['personal_data_processing', 'given', 'Verildi', '2026-02'],
      ]);
      const history = await s.call<Page<Consent>>(
        a,
        'GET',
        `/Customers/GetConsentHistory?CustomerId=${customerId}&Offset=0&Count=3`,
      );
      expect(history.body.value.total).toBe(4);
      expect(history.body.value.items.map((c) => [c.type, c.status])).toEqual([
        ['marketing', 'withdrawn'],
        ['marketing', 'given'],
        ['personal_data_processing', 'given'],
      ]);
      const times = history.body.value.items.map((c) => Date.parse(c.at));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
      const pdp = await s.call<Page<Consent>>(
        a,
        'GET',
        `/Customers/GetConsentHistory?CustomerId=${customerId}&Type=personal_data_processing`,
      );
      expect(pdp.body.value.items.map((c) => c.textVersion)).toEqual(['2026-02', '2026-01']);
    });

    it('is append-only in the database: the tenant role cannot update or delete an event', async () => {
      const org = asOrganizationId('bank-a');
      const run = (sql: string) =>
        s.app.get(TenantData).run(org, (tx) => (tx as unknown as DataSource['manager']).query(sql));
      await expect(run(`UPDATE customer_consents SET text_version = 'forged'`)).rejects.toThrow(
        /permission denied/,
      );
      await expect(run(`DELETE FROM customer_consents`)).rejects.toThrow(/permission denied/);
      const versions = await withClient(s.db.url, async (c) =>
        (await c.query(`SELECT text_version FROM lending.customer_consents ORDER BY recorded_at`)).rows.map(
          (r) => r.text_version as string,
        ),
      );
      expect(versions).toEqual(['2026-01', '2026-02', 'v1', 'v1']);
    });

    it('lets a closed customer withdraw, but not give', async () => {
      const c = await newCustomer();
      await s.call(a, 'POST', '/Customers/GiveConsent', {
        customerId: c,
        type: 'marketing',
        textVersion: 'v1',
        channel: 'api',
      });
      await s.call(a, 'POST', '/Customers/ChangeCustomerStatus', { customerId: c, status: 'closed' });
      const w = await s.call(a, 'POST', '/Customers/WithdrawConsent', {
        customerId: c,
        type: 'marketing',
        channel: 'branch',
      });
      expect(w.status).toBe(200);
      const g = await s.call(a, 'POST', '/Customers/GiveConsent', {
        customerId: c,
        type: 'marketing',
        textVersion: 'v2',
        channel: 'api',
      });
      expect([g.status, g.body.value.reason]).toEqual([409, 'CUSTOMER_CLOSED']);
    });

    it('refuses bad evidence fields with 400', async () => {
      const r = await give({ type: 'marketing', textVersion: 'v 1', ipAddress: '999.1.1.1', channel: 'fax' });
      expect(r.body.value.fields?.map((f) => f.field).sort()).toEqual([
        'channel',
        'ipAddress',
        'textVersion',
      ]);
    });
  });

  describe('bank accounts', () => {
    const add = (body: Record<string, unknown>) =>
      s.call<BankAccount>(a, 'POST', '/Customers/AddBankAccount', {
        customerId,
        holderName: 'Aigerim Nurlanova',
        currency: 'kzt',
        ...body,
      });

    it('accepts valid IBANs and local accounts, one primary at a time', async () => {
      const kz = await add({
        format: 'iban',
        iban: 'KZ86 125K ZT50 0410 0100',
        bic: 'caspkzka',
        primary: true,
      });
      expect([kz.status, kz.body.value]).toEqual([
        201,
        expect.objectContaining({
          iban: 'KZ86125KZT5004100100',
          country: 'KZ',
          currency: 'KZT',
          primary: true,
          scheme: 'IBAN',
        }),
      ]);
      const tr = await add({
        format: 'iban',
        iban: 'TR330006100519786457841326',
        currency: 'TRY',
        primary: true,
      });
      expect(tr.body.value.primary).toBe(true);
      const ru = await add({
        format: 'local',
        country: 'RU',
        accountNumber: '40702810200000000001',
        bankCode: '044525225',
        currency: 'RUB',
      });
      expect(ru.body.value).toMatchObject({ format: 'local', scheme: 'RU_ACCOUNT_BIK', primary: false });
      const list = await s.call<Page<BankAccount>>(
        a,
        'GET',
        `/Customers/GetBankAccounts?CustomerId=${customerId}`,
      );
      expect(list.body.value.total).toBe(3);
      expect(list.body.value.items.filter((x) => x.primary).map((x) => x.id)).toEqual([tr.body.value.id]);
      expect(list.body.value.items[0].id).toBe(tr.body.value.id);
      const dup = await add({ format: 'iban', iban: 'kz86125kzt5004100100' });
      expect([dup.status, dup.body.value.reason]).toEqual([409, 'CUSTOMER_BANK_ACCOUNT_DUPLICATE']);
      const removed = await s.call(a, 'POST', '/Customers/RemoveBankAccount', {
        bankAccountId: ru.body.value.id,
      });
      expect(removed.status).toBe(200);
      const got = await s.call<{ bankAccounts: BankAccount[] }>(
        a,
        'GET',
        `/Customers/GetCustomer?CustomerId=${customerId}`,
      );
      expect(got.body.value.bankAccounts.map((x) => x.id)).toEqual([tr.body.value.id, kz.body.value.id]);
    });

    it.each([
      [{ format: 'iban', iban: 'GB82WEST12345698765433' }, 'CUSTOMER_IBAN_INVALID', 'checksum'],
      [{ format: 'iban', iban: 'KZ86125KZT500410010' }, 'CUSTOMER_IBAN_INVALID', 'length'],
      [{ format: 'iban', iban: 'US12345678901234567890' }, 'CUSTOMER_IBAN_INVALID', 'country'],
      [
        { format: 'local', country: 'RU', accountNumber: '40702810300000000001', bankCode: '044525225' },
        'CUSTOMER_BANK_ACCOUNT_INVALID',
        'checksum',
      ],
      [
        { format: 'local', country: 'KZ', accountNumber: '1234567890', bankCode: '12345' },
        'CUSTOMER_BANK_ACCOUNT_INVALID',
        'iban_required',
      ],
      [
        { format: 'local', country: 'US', accountNumber: '123456789', bankCode: '021000022' },
        'CUSTOMER_BANK_ACCOUNT_INVALID',
        'checksum',
      ],
    ])('refuses %j with %s (%s)', async (body, reason, check) => {
      const r = await add(body);
      expect([r.status, r.body.value.reason, r.body.value.check]).toEqual([400, reason, check]);
    });

    it('refuses missing parts and bad codes with field errors', async () => {
      const r = await add({ format: 'local', currency: 'XYZ', bic: 'NOTABIC!' });
      expect(r.status).toBe(400);
      expect([...new Set(r.body.value.fields?.map((f) => f.field))].sort()).toEqual([
        'accountNumber',
        'bankCode',
        'bic',
        'country',
        'currency',
      ]);
      const iban = await add({ format: 'iban' });
      expect([...new Set(iban.body.value.fields?.map((f) => f.field))]).toEqual(['iban']);
    });
  });
});
