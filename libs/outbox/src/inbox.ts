import { quoteSchema, type Queryable } from './sql';

export interface TransactionRunner {
  /** Runs `work` in one database transaction and returns its result. */
  <R>(work: (tx: Queryable) => Promise<R>): Promise<R>;
}

export type InboxOutcome<R> = { duplicate: true } | { duplicate: false; result: R };

/**
 * Consumer-side dedupe: the (consumer, event id) row and the consumer's effect commit in one
 * transaction, so a redelivered message (at-least-once Kafka, a relay retry) has no second effect.
 */
export class Inbox {
  private readonly table: string;

  constructor(
    schema: string,
    private readonly consumer: string,
    private readonly transaction: TransactionRunner,
  ) {
    this.table = `${quoteSchema(schema)}.inbox`;
  }

  async handleOnce<R>(
    eventId: string,
    topic: string,
    effect: (tx: Queryable) => Promise<R>,
  ): Promise<InboxOutcome<R>> {
    return this.transaction(async (tx) => {
      const inserted = (await tx.query(
        `INSERT INTO ${this.table} (consumer, event_id, topic) VALUES ($1, $2, $3)
         ON CONFLICT (consumer, event_id) DO NOTHING RETURNING event_id`,
        [this.consumer, eventId, topic],
      )) as unknown[] | { rows: unknown[] };
      const rows = Array.isArray(inserted) ? inserted : inserted.rows;
      if (rows.length === 0) return { duplicate: true } as const;
      return { duplicate: false, result: await effect(tx) } as const;
    });
  }
}
