import { violations, type TopicContract } from '../contract';
import type { FieldSchema } from '../json-schema';
import { CONTRACTS } from '../registry';
import { ACCOUNTING_LEDGER_ACCOUNTS, type AccountingLedgerAccount } from './lending-accounting.events';
import {
  ACCOUNTING_EVENT_TYPES,
  BUREAU_758P_EVENTS,
  BUREAU_EVENT_TYPES,
  LENDING_ACCOUNTING_TOPIC,
  LENDING_BUREAU_TOPIC,
  LendingAccountingEvents,
  LendingBureauEvents,
  lendingEventContract,
  lendingEventViolations,
  type LendingEvent,
  type LendingEventOf,
} from './lending.topics';

const bureau = LendingBureauEvents.members ?? [];
const accounting = LendingAccountingEvents.members ?? [];
const all = [...bureau, ...accounting];

/** Every field schema of a contract, nested ones included, with its path. */
function fieldsOf(c: TopicContract<unknown>): [string, FieldSchema][] {
  const out: [string, FieldSchema][] = [];
  const walk = (path: string, s: FieldSchema) => {
    out.push([path, s]);
    for (const [name, p] of Object.entries(s.properties ?? {})) walk(`${path}.${name}`, p);
    if (s.items) walk(`${path}[]`, s.items);
  };
  for (const [name, s] of Object.entries(c.schema)) walk(name, s);
  return out;
}

describe('lending contract events', () => {
  it('has 33 bureau and 33 accounting event types, each once, on one topic per audience', () => {
    expect(BUREAU_EVENT_TYPES).toHaveLength(33);
    expect(ACCOUNTING_EVENT_TYPES).toHaveLength(33);
    expect(new Set([...BUREAU_EVENT_TYPES, ...ACCOUNTING_EVENT_TYPES]).size).toBe(66);
    for (const t of BUREAU_EVENT_TYPES) expect(t).toMatch(/^lending\.bureau\.[a-z][a-z-]*$/);
    for (const t of ACCOUNTING_EVENT_TYPES) expect(t).toMatch(/^lending\.accounting\.[a-z][a-z-]*$/);
    expect(bureau.every((c) => c.topic === LENDING_BUREAU_TOPIC)).toBe(true);
    expect(accounting.every((c) => c.topic === LENDING_ACCOUNTING_TOPIC)).toBe(true);
    expect(CONTRACTS.get(LENDING_BUREAU_TOPIC)).toBe(LendingBureauEvents);
    expect(CONTRACTS.get(LENDING_ACCOUNTING_TOPIC)).toBe(LendingAccountingEvents);
  });

  it('keys each event by its agreement (the application before one exists, the organization for the day close)', () => {
    const keys = Object.fromEntries(all.map((c) => [c.eventType, `${c.key}/${c.aggregateType}`]));
    for (const [type, key] of Object.entries(keys)) {
      const expected = type.startsWith('lending.bureau.application-')
        ? 'applicationId/lending.application'
        : type === 'lending.accounting.day-closed'
          ? 'organizationId/lending.organization'
          : 'agreementId/lending.agreement';
      expect([type, key]).toEqual([type, expected]);
    }
    const disbursed = lendingEventContract('lending.bureau.loan-disbursed');
    expect(disbursed.keyOf(disbursed.example as LendingEventOf<'lending.bureau.loan-disbursed'>)).toBe(
      (disbursed.example as { agreementId: string }).agreementId,
    );
  });

  it('versions every payload and names its type in it, with an example that validates', () => {
    for (const c of all) {
      expect([c.eventType, c.schema.eventType?.const, c.schema.schemaVersion?.const]).toEqual([
        c.eventType,
        c.eventType,
        1,
      ]);
      expect([c.eventType, violations(c, c.example)]).toEqual([c.eventType, []]);
      expect([c.eventType, c.description.length > 20]).toEqual([c.eventType, true]);
    }
  });

  it('carries money as integer minor units next to an ISO 4217 currency, dates as ISO dates, no floats', () => {
    for (const c of all) {
      const fields = fieldsOf(c);
      for (const [path, s] of fields) {
        const types: readonly string[] = typeof s.type === 'string' ? [s.type] : s.type;
        expect([c.eventType, path, types.includes('number')]).toEqual([c.eventType, path, false]);
        if (s.description?.includes('minor units'))
          expect([c.eventType, path, types.includes('integer')]).toEqual([c.eventType, path, true]);
      }
      const hasMoney = fields.some(([, s]) => s.description?.includes('minor units'));
      const hasCurrency = fields.some(([path, s]) => path.endsWith('currency') && s.pattern === '^[A-Z]{3}$');
      expect([c.eventType, hasMoney && !hasCurrency]).toEqual([c.eventType, false]);
      for (const [path, s] of fields.filter(([p]) => /(Date|On|Until|Since|From|To)$/.test(p)))
        expect([c.eventType, path, s.format]).toEqual([c.eventType, path, 'date']);
    }
  });

  it('maps every bureau event type to Regulation 758-P event codes, and says when the mapping is inferred', () => {
    expect(Object.keys(BUREAU_758P_EVENTS).sort()).toEqual([...BUREAU_EVENT_TYPES].sort());
    for (const c of bureau) {
      const r = BUREAU_758P_EVENTS[c.eventType as keyof typeof BUREAU_758P_EVENTS];
      expect(r.codes.length).toBeGreaterThan(0);
      for (const code of r.codes)
        expect([c.eventType, code]).toEqual([c.eventType, expect.stringMatching(/^[1-4]\.\d+(\.\d+)?$/)]);
      expect(c.description).toContain(`758-P event ${r.codes.join(' or ')}`);
      expect(c.description.includes('(inferred')).toBe(r.basis === 'inferred');
    }
    // The application events are 1.x, termination 2.5, corrections 3.x/4.x.
    expect(BUREAU_758P_EVENTS['lending.bureau.application-submitted'].codes).toEqual(['1.1']);
    expect(BUREAU_758P_EVENTS['lending.bureau.application-refused'].codes).toEqual(['1.3']);
    expect(BUREAU_758P_EVENTS['lending.bureau.loan-repaid'].codes).toEqual(['2.5']);
    expect(BUREAU_758P_EVENTS['lending.bureau.record-corrected'].codes).toEqual(['3.2']);
  });

  it('posts every accounting example as balanced pairs on the chart, off-balance only against off-balance', () => {
    const offBalance = (a: AccountingLedgerAccount) => ACCOUNTING_LEDGER_ACCOUNTS[a].type === 'off-balance';
    for (const c of accounting) {
      const example = c.example as {
        postings?: { debit: AccountingLedgerAccount; credit: AccountingLedgerAccount; amount: number }[];
      };
      for (const p of example.postings ?? []) {
        expect([c.eventType, p.debit === p.credit]).toEqual([c.eventType, false]);
        expect([c.eventType, offBalance(p.debit)]).toEqual([c.eventType, offBalance(p.credit)]);
      }
    }
  });

  it('splits amounts that add up: allocations, write-offs, forgiveness, assignments and the day totals', () => {
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const example = <T extends 'lending.accounting.payment-allocated'>(t: T) =>
      lendingEventContract(t).example as LendingEventOf<T>;
    const allocated = example('lending.accounting.payment-allocated');
    expect(sum(allocated.allocation)).toBe(allocated.amount);
    expect(allocated.postings.reduce((a, p) => a + p.amount, 0)).toBe(allocated.amount);
    const writeOff = lendingEventContract('lending.accounting.loan-written-off')
      .example as LendingEventOf<'lending.accounting.loan-written-off'>;
    expect(sum(writeOff.writtenOff)).toBe(writeOff.amount);
    const forgiven = lendingEventContract('lending.accounting.debt-forgiven')
      .example as LendingEventOf<'lending.accounting.debt-forgiven'>;
    expect(sum(forgiven.forgiven)).toBe(forgiven.amount);
    const assigned = lendingEventContract('lending.accounting.loan-assigned')
      .example as LendingEventOf<'lending.accounting.loan-assigned'>;
    expect(assigned.postings.reduce((a, p) => a + p.amount, 0)).toBe(sum(assigned.transferred));
    // The day-closed example totals the payment-received and payment-allocated examples of that day.
    const day = lendingEventContract('lending.accounting.day-closed')
      .example as LendingEventOf<'lending.accounting.day-closed'>;
    const ofDay = accounting
      .filter((c) => c.eventType !== day.eventType)
      .map((c) => c.example as { businessDate?: string; postings?: { amount: number }[] })
      .filter((e) => e.businessDate === day.businessDate);
    expect(ofDay).toHaveLength(day.eventCount);
    expect(day.totals).toEqual([
      {
        currency: 'RUB',
        eventCount: ofDay.length,
        postingCount: ofDay.flatMap((e) => e.postings ?? []).length,
        amountTotal: ofDay.flatMap((e) => e.postings ?? []).reduce((a, p) => a + p.amount, 0),
      },
    ]);
  });

  it('validates a payload for a given type, and types it', () => {
    const payload = lendingEventContract('lending.bureau.payment-received').example;
    expect(lendingEventViolations('lending.bureau.payment-received', payload)).toEqual([]);
    expect(lendingEventViolations('lending.accounting.payment-received', payload)).toContain(
      'eventType must be "lending.accounting.payment-received"',
    );
    expect(
      lendingEventViolations('lending.bureau.payment-received', { ...(payload as object), amount: 12.5 }),
    ).toEqual(['amount must be an integer']);
    expect(lendingEventViolations('lending.bureau.nothing', payload)).toEqual([
      'eventType must be a lending event type, not lending.bureau.nothing',
    ]);
    expect(() => lendingEventContract('lending.bureau.nothing' as never)).toThrow(/no lending event type/);
    // The union narrows on eventType, so a consumer's switch is checked by the compiler.
    const amountOf = (e: LendingEvent): number | null =>
      e.eventType === 'lending.bureau.loan-disbursed' || e.eventType === 'lending.accounting.loan-disbursed'
        ? e.amount
        : null;
    expect(amountOf(lendingEventContract('lending.accounting.loan-disbursed').example as LendingEvent)).toBe(
      25000000,
    );
  });
});
