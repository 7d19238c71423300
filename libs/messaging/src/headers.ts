/** Kafka headers every published event carries (set by the outbox relay from the outbox row). */
export const EventHeader = {
  EventId: 'event-id',
  EventType: 'event-type',
  SchemaVersion: 'schema-version',
  AggregateType: 'aggregate-type',
  TenantId: 'tenant-id',
  RequestId: 'request-id',
  OccurredAt: 'occurred-at',
  ContentType: 'content-type',
  /** On dead-lettered messages only. */
  OriginalTopic: 'original-topic',
  DeadLetterReason: 'dead-letter-reason',
} as const;
