import type { DebtComponent } from '../math';
import type { LedgerAccount } from './chart-of-accounts';

/** One line as a money operation builds it. */
export interface PostingLine {
  account: LedgerAccount;
  debit: number;
  credit: number;
  component: DebtComponent | null;
  instalmentId: string | null;
}

/** What a line settled: the debt component and the instalment it belongs to. */
export interface LineTag {
  component?: DebtComponent | null;
  instalmentId?: string | null;
}

/**
 * The lines of one ledger transaction, built side by side. Zero amounts add no line; `lines()` refuses
 * to hand out an unbalanced or empty set, so a bug is caught before the database's own check
 * (the deferred trigger of migration 1764000000000) would refuse the commit.
 */
export class Posting {
  private readonly out: PostingLine[] = [];

  debit(account: LedgerAccount, amount: number, tag: LineTag = {}): this {
    return this.add(account, amount, 0, tag);
  }

  credit(account: LedgerAccount, amount: number, tag: LineTag = {}): this {
    return this.add(account, 0, amount, tag);
  }

  private add(account: LedgerAccount, debit: number, credit: number, tag: LineTag): this {
    for (const v of [debit, credit])
      if (!Number.isSafeInteger(v) || v < 0)
        throw new Error(`ledger: ${account} amount ${v} is not whole minor units`);
    if (debit === 0 && credit === 0) return this;
    this.out.push({
      account,
      debit,
      credit,
      component: tag.component ?? null,
      instalmentId: tag.instalmentId ?? null,
    });
    return this;
  }

  lines(): PostingLine[] {
    const debits = this.out.reduce((s, l) => s + l.debit, 0);
    const credits = this.out.reduce((s, l) => s + l.credit, 0);
    if (this.out.length < 2 || debits !== credits || debits === 0)
      throw new Error(`ledger: unbalanced posting (debits ${debits}, credits ${credits})`);
    return [...this.out];
  }

  /** The mirror of posted lines (each debit a credit and back): what a reversal posts. */
  static mirror(lines: readonly PostingLine[]): Posting {
    const p = new Posting();
    for (const l of lines) p.add(l.account, l.credit, l.debit, l);
    return p;
  }
}
