/**
 * Lengths of an event's text fields in Unicode code points: the one definition the request DTO, the
 * table's CHECK constraints (char_length) and the Kafka contract share. A test compares all three.
 */
export const EVENT_LIMITS = {
  productId: 64,
  entityType: 64,
  entityId: 256,
  title: 500,
  description: 10_000,
  location: 1_000,
  personId: 128,
  resourceId: 128,
  timeZone: 64,
  recurrenceLine: 1_000,
  metadataEntries: 50,
  metadataKey: 64,
  metadataValue: 1_024,
} as const;
