import { createHash } from 'node:crypto';

/**
 * The daily accounting file, exactly as docs/lending/events.md ("Daily accounting file") specifies it:
 * RFC 4180 CSV, UTF-8 without BOM, CRLF after every record, one record per posting of each event in
 * the order written, the day close last. Pure: the same events give the same bytes, so a closed day's
 * file can be rebuilt at any time and its checksum still matches.
 */

export const ACCOUNTING_FILE_VERSION = 1;

export const ACCOUNTING_FILE_COLUMNS = [
  'organization_id',
  'business_date',
  'event_seq',
  'event_id',
  'event_type',
  'schema_version',
  'occurred_at',
  'operation_id',
  'agreement_id',
  'agreement_type',
  'loan_id',
  'line_no',
  'debit_account',
  'credit_account',
  'amount_minor',
  'currency',
  'currency_exponent',
  'reverses_event_id',
  'reverses_operation_id',
  'payload',
] as const;

export interface FileEvent {
  eventId: string;
  eventType: string;
  /** The payload as stored (jsonb): serialised, the same bytes as the Kafka message's value. */
  payload: Record<string, unknown>;
}

export interface AccountingFile {
  name: string;
  content: Buffer;
  /** 64 lower-case hex digits. */
  sha256: string;
  /** Records after the header. */
  records: number;
  events: number;
}

/** The organization as the file name carries it: as is when safe, else percent-encoded UTF-8. */
export function fileNameOrganization(organizationId: string): string {
  if (/^[A-Za-z0-9._-]+$/.test(organizationId)) return organizationId;
  // encodeURIComponent keeps ! ' ( ) * too; RFC 3986 keeps only the unreserved characters.
  return encodeURIComponent(organizationId).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function accountingFileName(organizationId: string, businessDate: string): string {
  return `lending-accounting_${fileNameOrganization(organizationId)}_${businessDate}_v${ACCOUNTING_FILE_VERSION}.csv`;
}

/** The `.sha256` sidecar's content: `sha256sum` format, so a receiver runs `sha256sum -c`. */
export function sha256sumLine(fileName: string, sha256: string): string {
  return `${sha256}  ${fileName}\n`;
}

/** ISO 4217 minor-unit digits (2 for RUB, 0 for JPY, 3 for KWD), from the runtime's currency data. */
export function currencyExponent(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

type Posting = { debit: string; credit: string; amount: number };

export function buildAccountingFile(
  organizationId: string,
  businessDate: string,
  events: readonly FileEvent[],
): AccountingFile {
  const lines: string[] = [ACCOUNTING_FILE_COLUMNS.join(',')];
  events.forEach((e, i) => {
    const p = e.payload;
    const currency = text(p.currency);
    const postings = (Array.isArray(p.postings) ? (p.postings as Posting[]) : []).filter((x) => x.amount > 0);
    const base = (lineNo: number, posting: Posting | null) =>
      [
        organizationId,
        businessDate,
        i + 1,
        e.eventId,
        e.eventType,
        p.schemaVersion ?? ACCOUNTING_FILE_VERSION,
        text(p.occurredAt) ?? text(p.closedAt),
        text(p.operationId),
        text(p.agreementId),
        text(p.agreementType),
        text(p.loanId),
        lineNo,
        posting?.debit,
        posting?.credit,
        posting?.amount,
        currency,
        currency ? currencyExponent(currency) : null,
        text(p.reversesEventId),
        text(p.reversesOperationId),
        JSON.stringify(p),
      ]
        .map(field)
        .join(',');
    if (!postings.length) lines.push(base(0, null));
    else postings.forEach((posting, n) => lines.push(base(n + 1, posting)));
  });
  const content = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
  return {
    name: accountingFileName(organizationId, businessDate),
    content,
    sha256: createHash('sha256').update(content).digest('hex'),
    records: lines.length - 1,
    events: events.length,
  };
}

/** Control totals of the day close: per currency, events, postings and their sum, by currency code. */
export function dayTotals(events: readonly FileEvent[]) {
  const by = new Map<
    string,
    { currency: string; eventCount: number; postingCount: number; amountTotal: number }
  >();
  for (const e of events) {
    const currency = text(e.payload.currency);
    if (!currency) continue;
    const t = by.get(currency) ?? { currency, eventCount: 0, postingCount: 0, amountTotal: 0 };
    t.eventCount++;
    for (const x of (e.payload.postings as Posting[] | undefined) ?? [])
      if (x.amount > 0) {
        t.postingCount++;
        t.amountTotal += x.amount;
      }
    by.set(currency, t);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}
