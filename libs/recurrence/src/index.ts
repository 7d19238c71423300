export { compileRecurrence, type CompiledRecurrence } from './series.compiler';
export { expandRecurrence, MAX_LIMIT } from './expand';
export {
  occurrenceIntervals,
  busyIntervals,
  type IntervalOptions,
  type BusyOptions,
  type BusyResult,
} from './free-busy';
export { validateRecurrence, type RecurrenceValidation } from './validate';
export {
  RecurrenceError,
  RecurrenceErrorCode,
  RecurrenceReason,
  type RecurrenceErrorDetails,
} from './recurrence.errors';
export type {
  EventTime,
  RecurrenceOverride,
  RecurrenceSeries,
  InstantInput,
  ExpandOptions,
  ExpandResult,
  Occurrence,
  ZonedTime,
  DateOnly,
  BusyInterval,
  StopReason,
} from './recurrence.types';
