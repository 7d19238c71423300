import { Injectable } from '@nestjs/common';
import type { TopicContract } from '@platform/messaging';
import { OutboxWriter, type AppendOptions } from '@platform/outbox';
import { txManager, type Tx } from '@platform/persistence';
import { CALENDAR_SCHEMA } from '../tenancy/tenant-ids';

/** The calendar's outbox, written in the business transaction (libs/outbox owns its SQL). */
@Injectable()
export class EventOutboxRepository {
  private readonly writer = new OutboxWriter(CALENDAR_SCHEMA);

  append<T>(tx: Tx, contract: TopicContract<T>, payload: T, opts: AppendOptions): Promise<string> {
    return this.writer.append(txManager(tx), contract, payload, opts);
  }
}
