import type { IHeaders } from 'kafkajs';
import { EventHeader } from '@platform/messaging';

/**
 * Headers a consumer adds when it dead-letters a message, next to the relay's `original-topic` and
 * `dead-letter-reason`: enough to find the message in its partition and to replay it to one group.
 */
export const DeadLetterHeader = {
  OriginalTopic: EventHeader.OriginalTopic,
  Reason: EventHeader.DeadLetterReason,
  OriginalPartition: EventHeader.OriginalPartition,
  OriginalOffset: EventHeader.OriginalOffset,
  Consumer: EventHeader.DeadLetterConsumer,
  Attempts: EventHeader.DeadLetterAttempts,
} as const;

/** As the relay: a reason is for people, and headers are not the place for a stack. */
const MAX_REASON = 500;

export interface OriginalMessage {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: IHeaders;
}

export interface DeadLetterMessage {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/**
 * The original key, value bytes and headers, untouched (a payload that is not even JSON must survive
 * for inspection), plus where it came from and why it stopped here.
 */
export function deadLetterMessage(
  original: OriginalMessage,
  d: { consumer: string; reason: string; attempts: number },
): DeadLetterMessage {
  return {
    key: original.key,
    value: original.value,
    headers: {
      ...(original.headers ?? {}),
      [DeadLetterHeader.OriginalTopic]: original.topic,
      [DeadLetterHeader.OriginalPartition]: String(original.partition),
      [DeadLetterHeader.OriginalOffset]: original.offset,
      [DeadLetterHeader.Consumer]: d.consumer,
      [DeadLetterHeader.Reason]: d.reason.slice(0, MAX_REASON),
      [DeadLetterHeader.Attempts]: String(d.attempts),
    },
  };
}
