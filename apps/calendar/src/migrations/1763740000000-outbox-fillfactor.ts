import { outboxFillfactorMigration } from '@platform/outbox';

/** The outbox keeps room in its pages for the relay's lease stamps (heap-only updates, decision 0015). */
export const OutboxFillfactor1763740000000 = outboxFillfactorMigration(
  'OutboxFillfactor1763740000000',
  'calendar',
);
