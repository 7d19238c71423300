import type { TopicContract } from './contract';
import { CalendarEventChanged, CalendarEventRemoved } from './topics/calendar.topics';
import { LendingAccountingEvents, LendingBureauEvents } from './topics/lending.topics';
import { ServiceHealthReported } from './topics/platform.topics';
import {
  VerificationCaseStatusChanged,
  VerificationDocumentStatusChanged,
  VerificationDocumentUploaded,
  VerificationManualReviewStatusChanged,
  VerificationSummaryGenerated,
} from './topics/verification.topics';

/**
 * Every contract by topic: the relay and consumers validate against it. A topic that carries several
 * event types is here once, as its family (its `members` are the types' own contracts).
 */
export const CONTRACTS: ReadonlyMap<string, TopicContract<unknown>> = new Map(
  [
    CalendarEventChanged,
    CalendarEventRemoved,
    LendingBureauEvents,
    LendingAccountingEvents,
    ServiceHealthReported,
    VerificationCaseStatusChanged,
    VerificationDocumentUploaded,
    VerificationDocumentStatusChanged,
    VerificationManualReviewStatusChanged,
    VerificationSummaryGenerated,
  ].map((c) => [c.topic, c as TopicContract<unknown>]),
);

export function contractFor(topic: string): TopicContract<unknown> | undefined {
  return CONTRACTS.get(topic);
}
