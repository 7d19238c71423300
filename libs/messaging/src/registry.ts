import type { TopicContract } from './contract';
import { CalendarEventChanged, CalendarEventRemoved } from './topics/calendar.topics';
import { ServiceHealthReported } from './topics/platform.topics';
import {
  VerificationCaseStatusChanged,
  VerificationDocumentStatusChanged,
  VerificationDocumentUploaded,
  VerificationManualReviewStatusChanged,
  VerificationSummaryGenerated,
} from './topics/verification.topics';

/** Every contract by topic: the relay and consumers validate against it. */
export const CONTRACTS: ReadonlyMap<string, TopicContract<unknown>> = new Map(
  [
    CalendarEventChanged,
    CalendarEventRemoved,
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
