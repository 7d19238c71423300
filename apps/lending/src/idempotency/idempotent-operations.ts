import { Injectable } from '@nestjs/common';
import type { BindParam } from '@platform/outbox';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../config/lending.config';
import { TenantData } from '../tenancy/tenant-data';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyError, idempotencyError } from './idempotency.errors';
import type { IdempotentRequest } from './idempotent-request';

const HOUR_MS = 3_600_000;

/**
 * Runs a money operation once per Idempotency-Key (docs/lending/loans.md, "Idempotency"), in one
 * tenant transaction:
 * 1. hold the key (a transaction advisory lock), waiting up to LENDING_IDEMPOTENCY_WAIT_MS for a
 *    request that holds it; still held after that: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS;
 * 2. a stored answer for the key: the same request gets it again (the same bytes, `Idempotent-Replayed:
 *    true`), a different request 422 IDEMPOTENCY_KEY_REUSED; nothing runs;
 * 3. otherwise the operation runs and its answer is stored in the same transaction, so the answer
 *    exists exactly when the operation committed. An operation that fails stores nothing: its retry
 *    runs again (and fails or succeeds on the state it then finds).
 * Concurrent identical requests therefore queue on the key and all answer what the first committed.
 */
@Injectable()
export class IdempotentOperations {
  constructor(
    private readonly data: TenantData,
    private readonly keys: IdempotencyKeysRepository,
    private readonly cfg: LendingConfig,
  ) {}

  async run<T>(
    organizationId: OrganizationId,
    request: IdempotentRequest,
    work: (tx: Tx, store: AnswerStore<T>) => Promise<T>,
    statusCode = 200,
  ): Promise<T> {
    const outcome = await this.data.run(organizationId, async (tx) => {
      const now = new Date();
      const hold = await this.keys.hold(
        organizationId,
        request.key,
        this.cfg.LENDING_IDEMPOTENCY_WAIT_MS,
        now,
        tx,
      );
      if (!hold.held) throw idempotencyError(IdempotencyError.REQUEST_IN_PROGRESS);
      const prior = hold.prior;
      if (prior) {
        if (prior.requestHash !== request.requestHash)
          throw idempotencyError(IdempotencyError.KEY_REUSED, {}, { route: prior.route });
        return { replayed: true, body: prior.responseBody };
      }
      const row = (responseBody: string) => ({
        key: request.key,
        requestHash: request.requestHash,
        route: request.route,
        statusCode,
        responseBody,
        createdAt: now,
        expiresAt: new Date(now.getTime() + this.cfg.LENDING_IDEMPOTENCY_TTL_HOURS * HOUR_MS),
      });
      // The work may write its answer in a statement of its own (the money pipeline's events statement).
      let storedBody: string | null = null;
      const store: AnswerStore<T> = (answer) => {
        const text = JSON.stringify(answer ?? null);
        return {
          sql: this.keys.rememberSql(organizationId, row(text)),
          written: () => {
            storedBody = text;
          },
        };
      };
      const body = JSON.stringify((await work(tx, store)) ?? null);
      // Not written by the work, or written for another answer (then the insert fails on the key: a bug).
      if (storedBody !== body) await this.keys.remember(organizationId, row(body), tx);
      return { replayed: false, body };
    });
    if (outcome.replayed) request.replayed();
    // The first answer goes out parsed from the very text a replay parses, so both are the same bytes.
    return JSON.parse(outcome.body) as T;
  }
}

/**
 * What a work may do with its answer: get the INSERT that stores it, to send within a statement of its
 * own, and say once that statement ran (`written`); the answer it then returns must be the same.
 */
export type AnswerStore<T> = (answer: T) => { sql: (bind: BindParam) => string; written: () => void };
