import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { DebtComponent } from '../math';
import { LEDGER_ACCOUNTS, type LedgerAccount, type TransactionKind } from './chart-of-accounts';
import { LedgerTransaction } from './ledger-transaction.entity';
import { checkPostingRange, exactMinor } from './money-range';
import type { PostingLine } from './posting';

export interface NewLedgerTransaction {
  loanId: string;
  kind: TransactionKind;
  amount: number;
  valueDate: string;
  reversesId?: string | null;
  idempotencyKey: string | null;
  details: Record<string, unknown>;
  keyId: string | null;
}

/** Debits and credits of an account over a set of lines. */
export interface AccountTotals {
  debit: number;
  credit: number;
}

/** What the lines naming one instalment paid on it (credits minus debits: reversals subtract). */
export interface InstalmentPaid {
  principal: number;
  interest: number;
  fees: number;
}

/** What an instalment has on the overdue accounts. */
export interface OverdueBalance {
  principal: number;
  interest: number;
}

/**
 * The double-entry ledger (docs/lending/loans.md, "Ledger"): transactions with their lines, always
 * inside a TenantData transaction that holds the loan's row lock. Balances are sums over lines; no
 * balance is ever stored or overwritten.
 */
@Injectable()
export class LedgerRepository extends TenantScopedRepository<LedgerTransaction, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LedgerTransaction, 'organizationId');
  }

  /**
   * Books one transaction and its lines; returns the transaction's id. The caller holds the loan's row
   * lock, so `seq` (the loan's next number) cannot collide.
   */
  async post(
    organizationId: OrganizationId,
    t: NewLedgerTransaction,
    lines: PostingLine[],
    tx: Tx,
  ): Promise<LedgerTransaction> {
    // The loan's whole turnover is checked where its position is read (LoanBook, after every operation
    // books, before it commits) and by the accruals as they post; here what this transaction carries.
    checkPostingRange(t.amount, lines);
    // The transaction and its lines in one statement (a schedule change that moves no money has no
    // lines: the balance check allows it for those kinds).
    const [row] = (await this.sqlPrepared(
      organizationId,
      `WITH t AS (
         INSERT INTO ledger_transactions
           (organization_id, loan_id, seq, kind, amount, value_date, reverses_id, idempotency_key, details, key_id)
         SELECT $1, $2, coalesce(max(seq), 0) + 1, $3, $4, $5, $6, $7, $8, $9
           FROM ledger_transactions WHERE organization_id = $1 AND loan_id = $2
         RETURNING id, seq, created_at),
       l AS (
         INSERT INTO ledger_lines
           (organization_id, transaction_id, loan_id, account, debit, credit, component, instalment_id)
         SELECT $1, t.id, $2, u.account, u.debit, u.credit, u.component, u.instalment_id
           FROM t, unnest($10::text[], $11::bigint[], $12::bigint[], $13::text[], $14::uuid[])
                     AS u(account, debit, credit, component, instalment_id)
         RETURNING 1)
       SELECT t.id, t.seq, t.created_at, (SELECT count(*) FROM l) AS lines FROM t`,
      [
        t.loanId,
        t.kind,
        t.amount,
        t.valueDate,
        t.reversesId ?? null,
        t.idempotencyKey,
        JSON.stringify(t.details),
        t.keyId,
        lines.map((l) => l.account),
        lines.map((l) => l.debit),
        lines.map((l) => l.credit),
        lines.map((l) => l.component),
        lines.map((l) => l.instalmentId),
      ],
      tx,
    )) as { id: string; seq: number; created_at: Date }[];
    return {
      id: row.id,
      organizationId,
      loanId: t.loanId,
      seq: row.seq,
      kind: t.kind,
      amount: t.amount,
      valueDate: t.valueDate,
      reversesId: t.reversesId ?? null,
      idempotencyKey: t.idempotencyKey,
      details: t.details,
      keyId: t.keyId,
      createdAt: row.created_at,
    };
  }

  /**
   * Runs `work` inside a savepoint and rolls everything it wrote back, whether it succeeds or fails:
   * a preview books what the operation would book (the accruals due first), reads, and leaves no trace.
   */
  dryRun<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
    return this.undone(tx, work);
  }

  /** Every account's debits and credits on the loan (accounts without lines: zero). */
  async totals(
    organizationId: OrganizationId,
    loanId: string,
    tx: Tx,
  ): Promise<Record<LedgerAccount, AccountTotals>> {
    const rows = (await this.sql(
      organizationId,
      `SELECT account, sum(debit)::text AS debit, sum(credit)::text AS credit
         FROM ledger_lines WHERE organization_id = $1 AND loan_id = $2 GROUP BY account`,
      [loanId],
      tx,
    )) as { account: LedgerAccount; debit: string; credit: string }[];
    const out = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { debit: 0, credit: 0 }])) as Record<
      LedgerAccount,
      AccountTotals
    >;
    for (const r of rows)
      out[r.account] = {
        debit: exactMinor(r.debit, `${r.account}.debit`),
        credit: exactMinor(r.credit, `${r.account}.credit`),
      };
    return out;
  }

  /**
   * Paid principal, interest and fees per instalment id, from the lines that name instalments. A move
   * to overdue names its instalment on both sides (Dr overdue_principal / Cr loan_principal), so it
   * nets to nothing here: only money paid (or its reversal) counts.
   */
  async paidByInstalment(
    organizationId: OrganizationId,
    loanId: string,
    tx: Tx,
  ): Promise<Map<string, InstalmentPaid>> {
    const rows = (await this.sql(
      organizationId,
      `SELECT instalment_id,
              sum(credit - debit) FILTER (WHERE account IN ('loan_principal', 'overdue_principal'))::text AS principal,
              sum(credit - debit) FILTER (
                WHERE account IN ('interest_receivable', 'interest_advance', 'overdue_interest'))::text AS interest,
              sum(credit - debit) FILTER (WHERE account = 'fee_receivable')::text AS fees
         FROM ledger_lines
        WHERE organization_id = $1 AND loan_id = $2 AND instalment_id IS NOT NULL
        GROUP BY instalment_id`,
      [loanId],
      tx,
    )) as { instalment_id: string; principal: string | null; interest: string | null; fees: string | null }[];
    return new Map(
      rows.map((r) => [
        r.instalment_id,
        {
          principal: exactMinor(r.principal, 'paid.principal'),
          interest: exactMinor(r.interest, 'paid.interest'),
          fees: exactMinor(r.fees, 'paid.fees'),
        },
      ]),
    );
  }

  byId(
    organizationId: OrganizationId,
    loanId: string,
    id: string,
    tx: Tx,
  ): Promise<LedgerTransaction | null> {
    return this.findOne(organizationId, { id, loanId }, tx);
  }

  /** The loan's last booked transaction (highest seq). */
  async latest(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<LedgerTransaction | null> {
    return this.select(
      organizationId,
      't',
      (q) => q.andWhere('t.loan_id = :loanId', { loanId }).orderBy('t.seq', 'DESC').limit(1).getOne(),
      tx,
    );
  }

  /** The loan's transactions booked after the one numbered `seq`, in booking order. */
  after(organizationId: OrganizationId, loanId: string, seq: number, tx: Tx): Promise<LedgerTransaction[]> {
    return this.select(
      organizationId,
      't',
      (q) =>
        q
          .andWhere('t.loan_id = :loanId', { loanId })
          .andWhere('t.seq > :seq', { seq })
          .orderBy('t.seq', 'ASC')
          .getMany(),
      tx,
    );
  }

  /** The reversal of a transaction, if any. */
  reversalOf(organizationId: OrganizationId, id: string, tx: Tx): Promise<LedgerTransaction | null> {
    return this.findOne(organizationId, { reversesId: id }, tx);
  }

  /** reversed transaction id -> its reversal's id, for the loan. */
  async reversalsOf(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<Map<string, string>> {
    const rows = (await this.sql(
      organizationId,
      `SELECT id, reverses_id FROM ledger_transactions
        WHERE organization_id = $1 AND loan_id = $2 AND reverses_id IS NOT NULL`,
      [loanId],
      tx,
    )) as { id: string; reverses_id: string }[];
    return new Map(rows.map((r) => [r.reverses_id, r.id]));
  }

  /** The loan's transactions, oldest first. */
  pageOf(
    organizationId: OrganizationId,
    loanId: string,
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[LedgerTransaction[], number]> {
    return this.page(organizationId, { loanId }, { order: { seq: 'ASC' }, offset, limit }, tx);
  }

  /** The lines of the given transactions, in booking order within each. */
  async linesOf(
    organizationId: OrganizationId,
    transactionIds: string[],
    tx: Tx,
  ): Promise<(PostingLine & { transactionId: string })[]> {
    if (!transactionIds.length) return [];
    const rows = (await this.sql(
      organizationId,
      `SELECT transaction_id, account, debit::text, credit::text, component, instalment_id
         FROM ledger_lines WHERE organization_id = $1 AND transaction_id = ANY($2::uuid[])
        ORDER BY transaction_id, debit DESC, account`,
      [transactionIds],
      tx,
    )) as {
      transaction_id: string;
      account: LedgerAccount;
      debit: string;
      credit: string;
      component: DebtComponent | null;
      instalment_id: string | null;
    }[];
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      account: r.account,
      debit: exactMinor(r.debit, 'debit'),
      credit: exactMinor(r.credit, 'credit'),
      component: r.component,
      instalmentId: r.instalment_id,
    }));
  }
}
