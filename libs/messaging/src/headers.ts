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
  /** Set by consumers (libs/consumer) that dead-letter a message they received. */
  OriginalPartition: 'original-partition',
  OriginalOffset: 'original-offset',
  DeadLetterConsumer: 'dead-letter-consumer',
  /** Handler runs before giving up; 0 when the message was refused before the handler ran. */
  DeadLetterAttempts: 'dead-letter-attempts',
} as const;
