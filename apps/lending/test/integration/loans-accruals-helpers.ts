import { lendingEventViolations } from '@platform/messaging';
import { withClient } from '@platform/testing';
import type { LendingFixture } from './lending-fixture';

type Posting = { debit: string; credit: string; amount: number };

/** An event of a loan as the outbox holds it. */
export interface OutboxEvent {
  id: string;
  type: string;
  payload: Record<string, unknown> & { postings?: Posting[]; operationId?: string };
}

/** The loan's events in writing order, `lending.` left off the types. */
export const eventsOf = (s: LendingFixture, loanId: string): Promise<OutboxEvent[]> =>
  withClient(s.db.url, async (c) => {
    const r = await c.query<OutboxEvent>(
      `SELECT id, replace(event_type, 'lending.', '') AS type, payload FROM lending.outbox
        WHERE aggregate_id = $1 ORDER BY seq`,
      [loanId],
    );
    return r.rows;
  });

/** A ledger transaction of the loan with its lines. */
export interface LedgerTx {
  id: string;
  seq: number;
  kind: string;
  amount: number;
  valueDate: string;
  details: Record<string, unknown>;
  lines: { account: string; debit: number; credit: number; instalmentId: string | null }[];
}

export const ledgerOf = (s: LendingFixture, loanId: string): Promise<LedgerTx[]> =>
  withClient(s.db.url, async (c) => {
    const txs = await c.query<{
      id: string;
      seq: number;
      kind: string;
      amount: string;
      value_date: string;
      details: Record<string, unknown>;
    }>(
      `SELECT id, seq, kind, amount::text, value_date::text, details FROM lending.ledger_transactions
        WHERE loan_id = $1 ORDER BY seq`,
      [loanId],
    );
    const lines = await c.query<{
      transaction_id: string;
      account: string;
      debit: string;
      credit: string;
      instalment_id: string | null;
    }>(
      `SELECT transaction_id, account, debit::text, credit::text, instalment_id FROM lending.ledger_lines
        WHERE loan_id = $1 ORDER BY transaction_id, debit DESC, account`,
      [loanId],
    );
    return txs.rows.map((t) => ({
      id: t.id,
      seq: t.seq,
      kind: t.kind,
      amount: Number(t.amount),
      valueDate: t.value_date,
      details: t.details,
      lines: lines.rows
        .filter((l) => l.transaction_id === t.id)
        .map((l) => ({
          account: l.account,
          debit: Number(l.debit),
          credit: Number(l.credit),
          instalmentId: l.instalment_id,
        })),
    }));
  });

/** The accounts that exist only in the accounting events: a transit account and the off-balance memo. */
const NOT_IN_LEDGER = new Set(['unallocated_payments', 'written_off_debt', 'off_balance_contra']);

const netOf = (pairs: { account: string; amount: number }[]) => {
  const net: Record<string, number> = {};
  for (const p of pairs) net[p.account] = (net[p.account] ?? 0) + p.amount;
  return Object.fromEntries(Object.entries(net).filter(([k, v]) => v !== 0 && !NOT_IN_LEDGER.has(k)));
};

/**
 * Every event of the loan fits its contract, and for every ledger transaction the accounting events
 * naming it as their operation post exactly its lines (account by account, debits minus credits).
 * Returns the problems (expected none).
 */
export async function eventsAgreeWithLedger(s: LendingFixture, loanId: string): Promise<string[]> {
  const problems: string[] = [];
  const events = await eventsOf(s, loanId);
  for (const e of events) {
    const v = lendingEventViolations(`lending.${e.type}` as never, e.payload);
    if (v.length) problems.push(`${e.type}: ${v.join('; ')}`);
  }
  for (const t of await ledgerOf(s, loanId)) {
    const postings = events
      .filter((e) => e.type.startsWith('accounting.') && e.payload.operationId === t.id)
      .flatMap((e) => e.payload.postings ?? []);
    const fromEvents = netOf(
      postings.flatMap((p) => [
        { account: p.debit, amount: p.amount },
        { account: p.credit, amount: -p.amount },
      ]),
    );
    const fromLines = netOf(t.lines.map((l) => ({ account: l.account, amount: l.debit - l.credit })));
    if (JSON.stringify(sorted(fromEvents)) !== JSON.stringify(sorted(fromLines)))
      problems.push(
        `${t.kind} #${t.seq}: events ${JSON.stringify(fromEvents)}, lines ${JSON.stringify(fromLines)}`,
      );
  }
  return problems;
}

const sorted = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** How many of the loan's events are of each type. */
export function countTypes(events: OutboxEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) out[e.type] = (out[e.type] ?? 0) + 1;
  return out;
}

/** Whole days from `from` to `to`. */
export const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** A value a test needs to exist (fails the test, naming it, otherwise). */
export function must<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`expected a ${what}`);
  return value;
}

/** The last item of a list that must not be empty. */
export const lastOf = <T>(xs: readonly T[]): T => must(xs.at(-1), 'last item');
