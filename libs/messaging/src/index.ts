export { defineContract, violations, assertValid, ContractViolation, type TopicContract } from './contract';
export { validateObject, type FieldSchema, type ObjectSchema } from './schema';
export { EventHeader } from './headers';
export { CONTRACTS, contractFor } from './registry';
export {
  CalendarEventChanged,
  CalendarEventRemoved,
  type CalendarEventChangedV1,
  type CalendarEventRemovedV1,
} from './topics/calendar.topics';
export {
  ServiceHealthReported,
  DEAD_LETTER_TOPIC,
  type ServiceHealthReportedV1,
} from './topics/platform.topics';
