import { defineContract, EVERY_CONSUMER, EVERY_KAFKA_APP, type EventOf } from '../contract';
import { deadLetterHeadersSchema } from '../headers';
import {
  instant,
  JSON_SCHEMA_DIALECT,
  SCHEMA_BASE_URI,
  typeName,
  type JsonSchemaDocument,
} from '../json-schema';

/**
 * Every app reports its readiness on a heartbeat and at once when it changes; public-status turns the
 * reports into per-service health (libs/health HealthReporter; docs/platform-health.md).
 */
export const ServiceHealthReported = defineContract({
  topic: 'platform.service.health-reported.v1',
  eventType: 'platform.service.health-reported',
  schemaVersion: 1,
  aggregateType: 'platform.service',
  description:
    "An app's readiness, reported by every app, the gateway included, at start, on a heartbeat " +
    '(HEALTH_HEARTBEAT_MS) and at once when readiness changes; sent directly, not through an outbox. ' +
    'public-status turns the reports into per-service health: a service with no report for ' +
    'HEALTH_SILENCE_INTERVALS heartbeats counts as down.',
  key: 'service',
  producers: [EVERY_KAFKA_APP],
  delivery: 'direct',
  schema: {
    service: {
      type: 'string',
      maxLength: 64,
      description: 'Name of the reporting app (as in libs/registry); also the message key.',
    },
    instance: {
      type: 'string',
      maxLength: 128,
      description: 'The replica that reported (its INSTANCE_ID).',
    },
    status: {
      type: 'string',
      enum: ['up', 'down'],
      description:
        '`up` when every readiness check passed, else `down`. The gateway reports its liveness ' +
        '(its readiness aggregates the services behind it, which report for themselves).',
    },
    checks: {
      type: 'object',
      additionalProperties: true,
      description:
        "Each readiness check's result by name, as the app's /health/ready reports it: " +
        '`{ status: up|down, latencyMs, error? }` (error cut to 200 characters). The failing checks are ' +
        'those whose status is `down`.',
    },
    reportedAt: instant('When the replica ran its checks.'),
  },
  example: {
    service: 'calendar',
    instance: 'calendar-7d9f6c5b4-x2k8p',
    status: 'up',
    checks: { database: { status: 'up', latencyMs: 2 }, broker: { status: 'up', latencyMs: 4 } },
    reportedAt: '2026-11-20T09:15:00.000Z',
  },
});

export type ServiceHealthReportedV1 = EventOf<typeof ServiceHealthReported>;

/**
 * Where the relay puts a message it could not publish after N message-specific failures, and where a
 * consumer (libs/consumer) puts one it could not handle. The payload is the original one, untouched; the
 * original topic and the reason travel in headers.
 */
export const DEAD_LETTER_TOPIC = 'platform.outbox.dead-lettered.v1';

/**
 * The dead-letter topic has no payload contract: its value is the original message's bytes, which may
 * not even be JSON (that can be why it is here). Its documentation is what the generator publishes.
 */
export const DeadLettered = {
  topic: DEAD_LETTER_TOPIC,
  description:
    'Messages that could not be delivered: from outbox-relay after RELAY_MAX_FAILURES message-specific ' +
    'failures (a contract violation found by its re-check, a topic the broker refuses), and from a ' +
    'consumer for a poison message or once its handler exhausted its attempts. Key, value and headers ' +
    'are the original ones; headers say where it came from and why. Nothing consumes it automatically: ' +
    'operators inspect and replay.',
  keyDescription: "The original message's key (its aggregate id), untouched; absent when it had none.",
  producers: ['outbox-relay', EVERY_CONSUMER],
  payloadSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}${DEAD_LETTER_TOPIC}.schema.json`,
    title: typeName(DEAD_LETTER_TOPIC),
    description:
      "The original message's value, byte for byte: usually JSON valid against the original topic's " +
      'schema (see the `original-topic` header), but a consumer also dead-letters values that are not ' +
      'JSON or violate the contract, so no shape is promised.',
  } as const,
  headersSchema: deadLetterHeadersSchema(DEAD_LETTER_TOPIC),
} satisfies {
  topic: string;
  description: string;
  keyDescription: string;
  producers: readonly string[];
  payloadSchema: Omit<JsonSchemaDocument, 'type' | 'properties' | 'required' | 'additionalProperties'>;
  headersSchema: JsonSchemaDocument;
};
