// Unscoped: the outbox is the service's table, not a tenant's; rows are written in the caller's tenant transaction.
import { Injectable } from '@nestjs/common';
import { lendingEventContract, type LendingEventType } from '@platform/messaging';
import { randomUUID } from 'node:crypto';
import { outboxInsertSql, prepareOutboxAppend, type BindParam } from '@platform/outbox';
import { currentRequestId } from '@platform/observability';
import { queryPrepared, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';

const SCHEMA = service('lending').schema;

/**
 * Lending's outbox (outbox-relay publishes it to Kafka): one row per event, in the caller's
 * transaction. The payload is validated against its type's contract here, so an event that does not
 * fit its schema fails the change instead of reaching the bureau or the books. The row names the HTTP
 * request that made the change (the message's `request-id`, from the request context); an event a
 * periodic job writes (the daily accruals, the accounting day close) has none.
 */
@Injectable()
export class LoanEventsRepository {
  /**
   * Several events in one round trip, in their order: their outbox rows in one INSERT, and `also`,
   * further data-modifying statements of the same transaction that need the events' ids (the
   * accounting book's records), as CTEs of the same statement; and `read`, an expression the same
   * statement answers (the webhook subscriptions' wanted types), whose value it returns.
   */
  async appendAll(
    tx: Tx,
    organizationId: OrganizationId,
    events: readonly { type: LendingEventType; payload: object; eventId: string }[],
    also: readonly ((bind: BindParam) => string)[] = [],
    read?: (bind: BindParam) => string,
  ): Promise<unknown> {
    if (!events.length) return undefined;
    const params: unknown[] = [];
    const bind: BindParam = (v) => {
      params.push(v);
      return `$${params.length}`;
    };
    const requestId = currentRequestId();
    const appends = events.map((e) =>
      prepareOutboxAppend(SCHEMA, lendingEventContract(e.type), e.payload as never, {
        tenantId: organizationId,
        requestId,
        eventId: e.eventId,
      }),
    );
    const ctes = [`written AS (${outboxInsertSql(SCHEMA, appends, bind)})`];
    also.forEach((sql, i) => ctes.push(`also_${i} AS (${sql(bind)} RETURNING 1)`));
    const extra = read ? `, ${read(bind)} AS read` : '';
    const [row] = (await queryPrepared(
      tx,
      `WITH ${ctes.join(',\n')}\nSELECT (SELECT count(*) FROM written)${also
        .map((_, i) => ` + (SELECT count(*) FROM also_${i})`)
        .join('')} AS n${extra}`,
      params,
    )) as { n: string; read?: unknown }[];
    return row.read;
  }
}

/** A new event's id (the outbox row's, the Kafka `event-id`). */
export const newEventId = (): string => randomUUID();
