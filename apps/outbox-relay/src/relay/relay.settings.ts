import { Partitioners, type Producer } from 'kafkajs';
import { createKafka } from '@platform/kafka';
import type { RelayOptions } from '@platform/outbox';
import type { RelayConfig } from '../config/relay.config';
import type { RelayLoopOptions } from './relay-loop';

// How the app turns its config into a producer, relay options and loop timing; the benchmark builds its
// relay and its raw producer from the same functions, so the two are measured with the same settings.

/** The relay's producer. */
export function createRelayProducer(cfg: RelayConfig): Producer {
  return createKafka(cfg, `${cfg.KAFKA_CLIENT_ID}-${cfg.INSTANCE_ID}`).producer({
    allowAutoTopicCreation: true,
    // kafkajs 2's default, named so that it does not warn about having changed it (murmur2 of the key).
    createPartitioner: Partitioners.DefaultPartitioner,
    // One request in flight keeps per-partition order without the idempotent producer.
    maxInFlightRequests: 1,
    retry: { initialRetryTime: 100, retries: 5, maxRetryTime: 3000 },
  });
}

export function relayOptions(cfg: RelayConfig, log?: RelayOptions['log']): RelayOptions {
  return {
    owner: `${cfg.INSTANCE_ID}`,
    batchSize: cfg.RELAY_BATCH_SIZE,
    leaseMs: cfg.RELAY_LEASE_MS,
    maxFailures: cfg.RELAY_MAX_FAILURES,
    backoffBaseMs: cfg.RELAY_BACKOFF_BASE_MS,
    backoffMaxMs: cfg.RELAY_BACKOFF_MAX_MS,
    log,
  };
}

export function relayLoopTiming(cfg: RelayConfig): Pick<RelayLoopOptions, 'pollIntervalMs' | 'wakeDelayMs'> {
  return { pollIntervalMs: cfg.RELAY_POLL_INTERVAL_MS, wakeDelayMs: cfg.RELAY_WAKE_DELAY_MS };
}
