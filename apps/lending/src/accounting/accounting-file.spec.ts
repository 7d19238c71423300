import { createHash } from 'node:crypto';
import {
  accountingFileName,
  buildAccountingFile,
  currencyExponent,
  dayTotals,
  sha256sumLine,
  type FileEvent,
} from './accounting-file';

const payment: FileEvent = {
  eventId: '11111111-1111-4111-8111-111111111111',
  eventType: 'lending.accounting.payment-allocated',
  payload: {
    eventType: 'lending.accounting.payment-allocated',
    schemaVersion: 1,
    organizationId: 'org-a',
    agreementId: 'a1',
    agreementType: 'loan',
    loanId: 'a1',
    operationId: 'op-1',
    businessDate: '2026-12-05',
    occurredAt: '2026-12-05T06:15:30.000Z',
    currency: 'RUB',
    note: 'say "hi", twice',
    postings: [
      { debit: 'unallocated_payments', credit: 'loan_principal', amount: 862910 },
      { debit: 'unallocated_payments', credit: 'interest_receivable', amount: 408900 },
    ],
  },
};
const closed: FileEvent = {
  eventId: '22222222-2222-4222-8222-222222222222',
  eventType: 'lending.accounting.day-closed',
  payload: {
    eventType: 'lending.accounting.day-closed',
    schemaVersion: 1,
    organizationId: 'org-a',
    businessDate: '2026-12-05',
    closedAt: '2026-12-06T00:00:01.000Z',
    eventCount: 1,
    totals: [{ currency: 'RUB', eventCount: 1, postingCount: 2, amountTotal: 1271810 }],
  },
};

describe('the daily accounting file (docs/lending/events.md)', () => {
  const file = buildAccountingFile('org-a', '2026-12-05', [payment, closed]);
  const records = file.content.toString('utf8').split('\r\n');

  it('is CRLF-terminated CSV with the documented header, a record per posting, the day close last', () => {
    expect(file.content.subarray(-2).toString()).toBe('\r\n');
    expect(file.content[0]).not.toBe(0xef); // no BOM
    expect(records[0]).toBe(
      'organization_id,business_date,event_seq,event_id,event_type,schema_version,occurred_at,operation_id,agreement_id,agreement_type,loan_id,line_no,debit_account,credit_account,amount_minor,currency,currency_exponent,reverses_event_id,reverses_operation_id,payload',
    );
    expect(records.slice(1, 3).map((r) => r.split(',').slice(0, 17).join(','))).toEqual([
      'org-a,2026-12-05,1,11111111-1111-4111-8111-111111111111,lending.accounting.payment-allocated,1,2026-12-05T06:15:30.000Z,op-1,a1,loan,a1,1,unallocated_payments,loan_principal,862910,RUB,2',
      'org-a,2026-12-05,1,11111111-1111-4111-8111-111111111111,lending.accounting.payment-allocated,1,2026-12-05T06:15:30.000Z,op-1,a1,loan,a1,2,unallocated_payments,interest_receivable,408900,RUB,2',
    ]);
    expect(records[3].split(',').slice(0, 17).join(',')).toBe(
      'org-a,2026-12-05,2,22222222-2222-4222-8222-222222222222,lending.accounting.day-closed,1,2026-12-06T00:00:01.000Z,,,,,0,,,,,',
    );
    expect(records[4]).toBe('');
    expect(file.records).toBe(3);
  });

  it('quotes the payload, doubling its quotes, so it parses back to the same JSON', () => {
    const field = records[1].slice(records[1].indexOf(',"{') + 1);
    expect(field.startsWith('"') && field.endsWith('"')).toBe(true);
    expect(JSON.parse(field.slice(1, -1).replaceAll('""', '"'))).toEqual(payment.payload);
  });

  it('has a checksum over exactly its bytes, the same bytes every time, and a sha256sum sidecar', () => {
    expect(file.sha256).toBe(createHash('sha256').update(file.content).digest('hex'));
    expect(buildAccountingFile('org-a', '2026-12-05', [payment, closed]).content.equals(file.content)).toBe(
      true,
    );
    expect(file.name).toBe('lending-accounting_org-a_2026-12-05_v1.csv');
    expect(sha256sumLine(file.name, file.sha256)).toBe(`${file.sha256}  ${file.name}\n`);
  });

  it('percent-encodes an organization id that is not file-name safe', () => {
    expect(accountingFileName('bank a/ü!', '2026-01-02')).toBe(
      'lending-accounting_bank%20a%2F%C3%BC%21_2026-01-02_v1.csv',
    );
  });

  it('places the decimal point by ISO 4217 minor units', () => {
    expect(['RUB', 'KZT', 'JPY', 'KWD'].map(currencyExponent)).toEqual([2, 2, 0, 3]);
  });

  it('totals postings per currency, as the day close carries them', () => {
    expect(dayTotals([payment, closed])).toEqual([
      { currency: 'RUB', eventCount: 1, postingCount: 2, amountTotal: 1271810 },
    ]);
  });
});
