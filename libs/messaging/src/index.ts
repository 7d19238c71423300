export {
  defineContract,
  violations,
  assertValid,
  ContractViolation,
  EVERY_CONSUMER,
  EVERY_KAFKA_APP,
  type ContractDefinition,
  type Delivery,
  type EventOf,
  type TopicContract,
} from './contract';
export {
  instant,
  nullableInstant,
  uuid,
  typeName,
  INSTANT_PATTERN,
  UUID_PATTERN,
  JSON_SCHEMA_DIALECT,
  SCHEMA_BASE_URI,
  type FieldSchema,
  type Fields,
  type JsonSchemaDocument,
  type PayloadOf,
} from './json-schema';
export { EventHeader, HEADER_DOCS, type EventHeaderName } from './headers';
export { CONTRACTS, contractFor } from './registry';
export { topicDocumentation, type TopicDocumentation } from './documentation';
export {
  CalendarEventChanged,
  CalendarEventRemoved,
  type CalendarEventChangedV1,
  type CalendarEventRemovedV1,
} from './topics/calendar.topics';
export {
  ServiceHealthReported,
  DEAD_LETTER_TOPIC,
  DeadLettered,
  type ServiceHealthReportedV1,
} from './topics/platform.topics';
export {
  VerificationCaseStatusChanged,
  VerificationDocumentUploaded,
  VerificationDocumentStatusChanged,
  VerificationManualReviewStatusChanged,
  VerificationSummaryGenerated,
  type VerificationCaseStatusChangedV1,
  type VerificationDocumentUploadedV1,
  type VerificationDocumentStatusChangedV1,
  type VerificationManualReviewStatusChangedV1,
  type VerificationSummaryGeneratedV1,
} from './topics/verification.topics';
