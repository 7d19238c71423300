import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asOrganizationId } from '@platform/tenancy';
import { withClient } from '@platform/testing';
import { AccountingCloseJob } from '../../src/accounting/accounting-close.job';
import { AccountingDaysService } from '../../src/accounting/accounting-days.service';
import { ACCOUNTING_FILE_COLUMNS } from '../../src/accounting/accounting-file';
import { LoanEvents } from '../../src/loans/events/loan-events';
import { TenantData } from '../../src/tenancy/tenant-data';
import { startLending, type LendingFixture } from './lending-fixture';
import { activeLoan, dayFromToday, idem, ok } from './loans-helpers';

/** RFC 4180: records split on CRLF outside quotes, fields on commas, "" inside quotes is one quote. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || record.length) throw new Error('the file does not end with CRLF');
  return records;
}

interface OutboxEvent {
  id: string;
  type: string;
  value: string;
  payload: Record<string, unknown> & {
    businessDate?: string;
    postings?: { debit: string; credit: string; amount: number }[];
  };
}

/**
 * The daily accounting file (docs/lending/events.md, "Daily accounting file"): its records are exactly
 * the organization's accounting events of the day, as written to the outbox (Kafka's bytes), the day
 * close last with matching totals; its checksum verifies with sha256sum; a closed day is final.
 */
describe('the daily accounting file (real PostgreSQL)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let dir: string;
  const org = asOrganizationId('bank-f');
  const today = dayFromToday(0);
  const tomorrow = dayFromToday(1);
  const at = (day: string) => new Date(`${day}T00:05:00Z`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lending-accounting-'));
    s = await startLending('lending_accounting_file', { LENDING_ACCOUNTING_FILES_DIR: dir });
    a = await s.organization('bank-f');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The organization's accounting events in the outbox, in writing order; `value` is the Kafka value. */
  const accountingOutbox = () =>
    withClient(s.db.url, async (c) => {
      const r = await c.query<{ id: string; type: string; payload: OutboxEvent['payload'] }>(
        `SELECT id, event_type AS type, payload FROM lending.outbox
          WHERE tenant_id = 'bank-f' AND topic = 'lending.contract.accounting-events.v1' ORDER BY seq`,
      );
      // What the relay publishes: JSON.stringify of the stored jsonb (libs/outbox toMessage).
      return r.rows.map((x) => ({ ...x, value: JSON.stringify(x.payload) }));
    });
  const fetchFile = async (date: string) => {
    const res = await fetch(`${s.base}/Reporting/GetAccountingFile?Date=${date}`, { headers: a });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('holds exactly the day’s accounting events in the order written, the day close last, and its checksum verifies', async () => {
    const { loan } = await activeLoan(s, a, 'bank-f', { product: { originationFee: 5_000 } });
    await ok(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 30_000, channel: 'card' }),
    );
    await ok(
      s.call(idem(a), 'POST', '/Loans/MakePayment', {
        loanId: loan.id,
        amount: 2_000_000,
        mode: 'reduceTerm',
      }),
    );

    const open = await fetchFile(today);
    expect([open.res.status, JSON.parse(open.bytes.toString()).value.reason]).toEqual([
      409,
      'ACCOUNTING_DAY_NOT_OVER',
    ]);

    // A transaction writing an accounting event is still open when the close starts: the close waits
    // for it (the day lock), so the day's file holds its event.
    const fee = (await accountingOutbox()).find((e) => e.type === 'lending.accounting.fee-charged');
    const { eventType, schemaVersion, organizationId, occurredAt, ...body } = fee?.payload ?? {};
    expect([eventType, schemaVersion, organizationId, typeof occurredAt]).toEqual([
      'lending.accounting.fee-charged',
      1,
      'bank-f',
      'string',
    ]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let written: (id: string) => void = () => undefined;
    const emitted = new Promise<string>((r) => (written = r));
    const held = s.app.get(TenantData).run(org, async (tx) => {
      const id = await s.app
        .get(LoanEvents)
        .emit(tx, org, 'lending.accounting.fee-charged', { ...body, operationId: randomUUID() } as never);
      written(id);
      await gate;
      return id;
    });
    const heldId = await emitted;
    let closedYet = false;
    // The close as the job makes it just after midnight (simulated clock; the API needs the day over).
    const closing = s.app
      .get(AccountingDaysService)
      .closeThrough(org, today, at(tomorrow))
      .then((r) => {
        closedYet = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 400));
    expect(closedYet).toBe(false);
    release();
    expect(await held).toBe(heldId);
    const closed = await closing;
    expect(closed.map((d) => d.businessDate)).toEqual([today]);

    const { res, bytes } = await fetchFile(today);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="lending-accounting_bank-f_${today}_v1.csv"`,
    );
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(res.headers.get('x-checksum-sha256')).toBe(sha);
    expect(closed[0]).toMatchObject({ fileSha256: sha, fileBytes: bytes.length });

    const outbox = await accountingOutbox();
    const ofDay = outbox.filter((e) => e.payload.businessDate === today);
    expect(ofDay.at(-2)?.id).toBe(heldId);
    // The disbursement, two payments (the second repaying everything early), then the close.
    expect(ofDay.slice(0, 3).map((e) => e.type)).toEqual([
      'lending.accounting.loan-disbursed',
      'lending.accounting.fee-charged',
      'lending.accounting.payment-received',
    ]);
    expect(ofDay.map((e) => e.type)).toContain('lending.accounting.loan-closed');
    expect(ofDay.at(-1)?.type).toBe('lending.accounting.day-closed');

    const [header, ...records] = parseCsv(bytes.toString('utf8'));
    expect(header).toEqual([...ACCOUNTING_FILE_COLUMNS]);
    const col = (r: string[], name: (typeof ACCOUNTING_FILE_COLUMNS)[number]) =>
      r[ACCOUNTING_FILE_COLUMNS.indexOf(name)];
    // One event per event_seq, in the outbox order, each with the same id, type and payload bytes as Kafka.
    const events = [...new Map(records.map((r) => [col(r, 'event_seq'), r])).values()];
    expect(events.map((r) => col(r, 'event_id'))).toEqual(ofDay.map((e) => e.id));
    expect(events.map((r) => col(r, 'event_seq'))).toEqual(ofDay.map((_, i) => String(i + 1)));
    for (const [i, e] of ofDay.entries()) {
      const rows = records.filter((r) => col(r, 'event_id') === e.id);
      expect(new Set(rows.map((r) => col(r, 'payload')))).toEqual(new Set([e.value]));
      expect(rows.every((r) => col(r, 'event_type') === e.type && col(r, 'business_date') === today)).toBe(
        true,
      );
      const postings = (e.payload.postings ?? []).filter((p) => p.amount > 0);
      if (!postings.length) expect(rows.map((r) => col(r, 'line_no'))).toEqual(['0']);
      else
        expect(
          rows.map((r) => [
            col(r, 'line_no'),
            col(r, 'debit_account'),
            col(r, 'credit_account'),
            col(r, 'amount_minor'),
          ]),
        ).toEqual(postings.map((p, n) => [String(n + 1), p.debit, p.credit, String(p.amount)]));
      if (i < ofDay.length - 1)
        expect(
          rows.every(
            (r) =>
              col(r, 'operation_id') === e.payload.operationId &&
              col(r, 'currency') === 'KZT' &&
              col(r, 'currency_exponent') === '2',
          ),
        ).toBe(true);
    }
    // The day close's control totals hold for the records before it.
    const close = ofDay.at(-1)?.payload as {
      eventCount: number;
      totals: { currency: string; postingCount: number; amountTotal: number }[];
    };
    const posted = records.filter((r) => Number(col(r, 'line_no')) >= 1);
    expect(close.eventCount).toBe(events.length - 1);
    expect(close.totals).toEqual([
      {
        currency: 'KZT',
        eventCount: events.length - 1,
        postingCount: posted.length,
        amountTotal: posted.reduce((x, r) => x + Number(col(r, 'amount_minor')), 0),
      },
    ]);

    // sha256sum -c, as a receiver checks it.
    const name = `lending-accounting_bank-f_${today}_v1.csv`;
    const check = mkdtempSync(join(tmpdir(), 'lending-accounting-check-'));
    writeFileSync(join(check, name), bytes);
    writeFileSync(join(check, `${name}.sha256`), `${sha}  ${name}\n`);
    const run = spawnSync('sha256sum', ['-c', `${name}.sha256`], { cwd: check, encoding: 'utf8' });
    expect([run.status, run.stdout.trim()]).toEqual([0, `${name}: OK`]);
    rmSync(check, { recursive: true, force: true });
  });

  it('is final once closed: a later event goes to the open day and the file keeps its bytes', async () => {
    const before = await fetchFile(today);
    const { loan } = await activeLoan(s, a, 'bank-f');
    const all = await accountingOutbox();
    const events = all.slice(all.findIndex((e) => e.type === 'lending.accounting.day-closed') + 1);
    expect(events.map((e) => e.type)).toContain('lending.accounting.loan-disbursed');
    expect(events.every((e) => e.payload.businessDate === tomorrow)).toBe(true);
    const after = await fetchFile(today);
    expect(after.bytes.equals(before.bytes)).toBe(true);
    // Closing it again changes nothing; a day not over is refused; a day before the first has no file.
    expect(await s.app.get(AccountingDaysService).closeThrough(org, today, at(tomorrow))).toEqual([]);
    const notOver = await s.call(a, 'POST', '/Reporting/CloseAccountingDay', { date: today });
    expect([notOver.status, notOver.body.value.reason]).toEqual([409, 'ACCOUNTING_DAY_NOT_OVER']);
    const notClosed = await fetchFile(tomorrow);
    expect(notClosed.res.status).toBe(409);
    const early = await fetchFile(dayFromToday(-3));
    expect([early.res.status, JSON.parse(early.bytes.toString()).value.reason]).toEqual([
      404,
      'ACCOUNTING_FILE_NOT_FOUND',
    ]);
    const nothing = await ok<{ items: unknown[]; total: number }>(
      s.call(a, 'POST', '/Reporting/CloseAccountingDay', { date: dayFromToday(-1) }),
    );
    expect(nothing).toEqual({ items: [], total: 0 });
    expect(loan.id).toBeTruthy();
  });

  it('lets the job close the next day and write both files with their sha256sum sidecars', async () => {
    await s.app.get(AccountingCloseJob).closeAll(at(dayFromToday(2)));
    const days = await ok<{
      items: { businessDate: string; fileName: string; fileSha256: string; eventCount: number }[];
    }>(s.call(a, 'GET', '/Reporting/GetAccountingDays'));
    expect(days.items.map((d) => d.businessDate)).toEqual([tomorrow, today]);
    expect(days.items[0].eventCount).toBeGreaterThan(0);
    const year = today.slice(0, 4);
    const folder = join(dir, 'bank-f', year);
    for (const d of days.items.filter((x) => x.businessDate.startsWith(year))) {
      const run = spawnSync('sha256sum', ['-c', `${d.fileName}.sha256`], { cwd: folder, encoding: 'utf8' });
      expect([run.status, run.stdout.trim()]).toEqual([0, `${d.fileName}: OK`]);
      const { bytes } = await fetchFile(d.businessDate);
      expect(readFileSync(join(folder, d.fileName)).equals(bytes)).toBe(true);
    }
    expect(readdirSync(folder).some((f) => f.endsWith('.part'))).toBe(false);
  });
});
