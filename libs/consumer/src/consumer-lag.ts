import type { Consumer } from 'kafkajs';
import { gauge } from '@platform/observability';

/**
 * Messages of a partition this replica has not handled yet: the partition's high watermark minus the
 * next offset to handle, as kafkajs reports it around every fetched batch (at its start, so a handler
 * stuck on a message shows the lag growing behind it, and at its end). Partitions given away in a
 * rebalance lose their series; Kafka's own view of every group (committed offsets) is Strimzi's Kafka
 * Exporter's `kafka_consumergroup_lag`.
 */
export const consumerLag = gauge({
  name: 'kafka_consumer_lag',
  help: 'Messages of an assigned partition not handled yet by this replica (high watermark - next offset).',
  labelNames: ['group', 'topic', 'partition'] as const,
});

export function trackConsumerLag(consumer: Consumer, group: string): void {
  const held = new Map<string, { topic: string; partition: string }>();
  const set = (topic: string, partition: number, lag: number) => {
    const labels = { topic, partition: String(partition) };
    held.set(`${topic}\u0000${partition}`, labels);
    consumerLag.set({ group, ...labels }, Math.max(0, lag));
  };
  const forget = () => {
    for (const labels of held.values()) consumerLag.remove({ group, ...labels });
    held.clear();
  };
  consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) =>
    set(payload.topic, payload.partition, Number(payload.offsetLagLow) + 1),
  );
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
    set(payload.topic, payload.partition, Number(payload.offsetLag)),
  );
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    forget();
    for (const [topic, partitions] of Object.entries(payload.memberAssignment))
      for (const p of partitions) set(topic, p, 0);
  });
  consumer.on(consumer.events.STOP, forget);
}
