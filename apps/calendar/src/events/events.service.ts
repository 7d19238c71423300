import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CalendarEventChanged } from '@platform/messaging';
import { OutboxWriter } from '@platform/outbox';
import { inTransaction } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { Account } from '../tenancy/account.entity';
import { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { EventResponse } from './dto/event.response';
import type { UpsertEventRequest } from './dto/upsert-event.request';

export interface UpsertResult {
  event: CalendarEvent;
  created: boolean;
}

@Injectable()
export class EventsService {
  private readonly outbox = new OutboxWriter('calendar');

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Create or update by identity triple with optimistic concurrency. The version check is one atomic
   * statement (`... WHERE version = $expected`), so concurrent writers with the same version get exactly
   * one success; the row and its outbox event commit together.
   */
  async upsert(
    accountId: AccountId,
    productId: ProductId,
    req: UpsertEventRequest,
    requestId: string,
  ): Promise<UpsertResult> {
    const startsAt = req.starts_at ? new Date(req.starts_at) : null;
    const endsAt = req.ends_at ? new Date(req.ends_at) : null;
    if (startsAt && endsAt && endsAt < startsAt) throw calendarError(CalendarError.INVALID_TIME_RANGE);
    const identity = { accountId, productId, entityType: req.entity_type, entityId: req.entity_id };
    const fields = {
      title: req.title ?? null,
      startsAt,
      endsAt,
      status: req.status ?? 'confirmed',
    };
    const expected = req.version ?? 0;

    return inTransaction(this.ds, async (tx) => {
      if (!(await tx.getRepository(Account).existsBy({ id: accountId }))) {
        throw calendarError(CalendarError.ACCOUNT_NOT_FOUND, { accountId });
      }
      const changed =
        expected === 0
          ? await tx
              .createQueryBuilder()
              .insert()
              .into(CalendarEvent)
              .values({ ...identity, ...fields, version: 1 })
              .orIgnore()
              .execute()
              .then((r) => r.raw.length > 0)
          : await tx
              .createQueryBuilder()
              .update(CalendarEvent)
              .set({ ...fields, version: () => 'version + 1' })
              .where(
                'account_id = :accountId AND product_id = :productId AND entity_type = :entityType AND entity_id = :entityId AND version = :expected',
                { ...identity, expected },
              )
              .execute()
              .then((r) => (r.affected ?? 0) > 0);
      const current = await tx.getRepository(CalendarEvent).findOneBy(identity);
      if (!changed || !current) {
        throw calendarError(
          CalendarError.VERSION_CONFLICT,
          { sent: expected, current: current?.version ?? 0 },
          { current: current ? EventResponse.from(current) : null },
        );
      }
      await this.publishChanged(tx, current, requestId);
      return { event: current, created: expected === 0 };
    });
  }

  private async publishChanged(tx: EntityManager, e: CalendarEvent, requestId: string): Promise<void> {
    await this.outbox.append(
      tx,
      CalendarEventChanged,
      {
        eventId: e.id,
        accountId: e.accountId,
        productId: e.productId,
        entityType: e.entityType,
        entityId: e.entityId,
        version: e.version,
        title: e.title,
        startsAt: e.startsAt?.toISOString() ?? null,
        endsAt: e.endsAt?.toISOString() ?? null,
        status: e.status,
        changedAt: e.updatedAt.toISOString(),
      },
      { tenantId: e.accountId, requestId },
    );
  }
}
