import type { BindParam } from '@platform/outbox';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyError, idempotencyError } from './idempotency.errors';
import type { IdempotentRequest } from './idempotent-request';

const HOUR_MS = 3_600_000;

/** How a service runs its idempotent operations. */
export interface IdempotencyOptions {
  /**
   * How long a request waits for the first request with its key to finish (then it answers what that
   * one committed); still held after that: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS. 0: answer 409 at once.
   */
  waitMs: number;
  /** How long a key and its answer are kept (at least 24 hours). */
  ttlHours: number;
  /** Runs `work` in one transaction as the organization (row-level security in force). */
  transaction<R>(organizationId: OrganizationId, work: (tx: Tx) => Promise<R>): Promise<R>;
}

/** What one operation adds to the defaults. */
export interface IdempotentRun<T> {
  /** The answer's HTTP status, stored with it (200). */
  statusCode?: number;
  /**
   * What is stored of the answer (default: the answer itself, replayed as the same bytes). An answer
   * holding a secret stores a reference instead and rebuilds the answer on a repeat with `replay`.
   */
  stored?: (answer: T) => unknown;
  /** Builds a repeat's answer from what was stored, in the repeat's transaction (with `stored`). */
  replay?: (tx: Tx, stored: unknown) => Promise<T>;
}

/**
 * Runs an operation once per Idempotency-Key (docs/idempotency.md), in one tenant transaction:
 * 1. hold the key (a transaction advisory lock), waiting up to `waitMs` for a request that holds it;
 *    still held after that: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS;
 * 2. a stored answer for the key: the same request gets it again (`Idempotent-Replayed: true`; the same
 *    bytes unless the operation rebuilds it with `replay`), a different request 422
 *    IDEMPOTENCY_KEY_REUSED; the operation does not run;
 * 3. otherwise the operation runs and its answer is stored in the same transaction, so the answer
 *    exists exactly when the operation committed. An operation that fails stores nothing: its retry
 *    runs again (and fails or succeeds on the state it then finds).
 * Concurrent identical requests therefore queue on the key (or get 409) and all answer what the first
 * committed.
 */
export class IdempotentOperations {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly opts: IdempotencyOptions,
  ) {}

  async run<T>(
    organizationId: OrganizationId,
    request: IdempotentRequest,
    work: (tx: Tx, store: AnswerStore<T>) => Promise<T>,
    run: IdempotentRun<T> = {},
  ): Promise<T> {
    const statusCode = run.statusCode ?? 200;
    const outcome = await this.opts.transaction(organizationId, async (tx) => {
      const now = new Date();
      const hold = await this.keys.hold(organizationId, request.key, this.opts.waitMs, now, tx);
      if (!hold.held) throw idempotencyError(IdempotencyError.REQUEST_IN_PROGRESS);
      const prior = hold.prior;
      if (prior) {
        if (prior.requestHash !== request.requestHash)
          throw idempotencyError(IdempotencyError.KEY_REUSED, {}, { route: prior.route });
        if (run.replay)
          return { replayed: true, answer: await run.replay(tx, JSON.parse(prior.responseBody)) };
        return { replayed: true, body: prior.responseBody };
      }
      const row = (responseBody: string) => ({
        key: request.key,
        requestHash: request.requestHash,
        route: request.route,
        statusCode,
        responseBody,
        createdAt: now,
        expiresAt: new Date(now.getTime() + this.opts.ttlHours * HOUR_MS),
      });
      const textOf = (answer: T) => JSON.stringify((run.stored ? run.stored(answer) : answer) ?? null);
      // The work may write its answer in a statement of its own (the money pipeline's events statement).
      let stored: { answer: T; text: string } | null = null;
      const store: AnswerStore<T> = (answer) => {
        const text = textOf(answer);
        return {
          sql: this.keys.rememberSql(organizationId, row(text)),
          written: () => {
            stored = { answer, text };
          },
        };
      };
      const answer = await work(tx, store);
      // The answer the work stored is serialised once (a payment's answer is not stringified twice).
      // (`stored` is set in a closure, which TypeScript's narrowing does not see.)
      const written = stored as { answer: T; text: string } | null;
      const text = written?.answer === answer ? written.text : textOf(answer);
      const storedText = written?.text ?? null;
      // Not written by the work, or written for another answer (then the insert fails on the key: a bug).
      if (storedText !== text) await this.keys.remember(organizationId, row(text), tx);
      return run.stored ? { replayed: false, answer } : { replayed: false, body: text };
    });
    if (outcome.replayed) request.replayed();
    // An answer stored as itself goes out parsed from the very text a repeat parses: the same bytes.
    return 'body' in outcome ? (JSON.parse(outcome.body as string) as T) : (outcome.answer as T);
  }
}

/**
 * What a work may do with its answer: get the INSERT that stores it, to send within a statement of its
 * own, and say once that statement ran (`written`); the answer it then returns must be the same.
 */
export type AnswerStore<T> = (answer: T) => { sql: (bind: BindParam) => string; written: () => void };
