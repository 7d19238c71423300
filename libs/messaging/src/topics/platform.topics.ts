import { defineContract } from '../contract';

export interface ServiceHealthReportedV1 {
  service: string;
  instance: string;
  status: 'up' | 'down';
  checks: Record<string, unknown>;
  reportedAt: string;
}

/** Every app reports its readiness; public-status turns the reports into uptime. */
export const ServiceHealthReported = defineContract<ServiceHealthReportedV1>({
  topic: 'platform.service.health-reported.v1',
  eventType: 'platform.service.health-reported',
  schemaVersion: 1,
  aggregateType: 'platform.service',
  keyOf: (p) => p.service,
  schema: {
    service: { type: 'string', maxLength: 64 },
    instance: { type: 'string', maxLength: 128 },
    status: { type: 'enum', values: ['up', 'down'] },
    checks: { type: 'json' },
    reportedAt: { type: 'datetime' },
  },
});

/**
 * Where the relay puts a message it could not publish after N message-specific failures. The payload is
 * the original one, untouched; the original topic and the reason travel in headers.
 */
export const DEAD_LETTER_TOPIC = 'platform.outbox.dead-lettered.v1';
