import { EventEmitter } from 'node:events';
import type { Consumer } from 'kafkajs';
import { metricsRegistry } from '@platform/observability';
import { trackConsumerLag } from './consumer-lag';

/** The instrumentation events of a kafkajs consumer, emitted by hand. */
function fakeConsumer() {
  const emitter = new EventEmitter();
  const events = {
    START_BATCH_PROCESS: 'consumer.start_batch_process',
    END_BATCH_PROCESS: 'consumer.end_batch_process',
    GROUP_JOIN: 'consumer.group_join',
    STOP: 'consumer.stop',
  };
  const consumer = {
    events,
    on: (name: string, listener: (e: unknown) => void) => emitter.on(name, listener),
  } as unknown as Consumer;
  const emit = (name: keyof typeof events, payload: object) => emitter.emit(events[name], { payload });
  return { consumer, emit };
}

const lagLines = async () =>
  (await metricsRegistry.metrics()).split('\n').filter((l) => l.startsWith('kafka_consumer_lag{'));

describe('trackConsumerLag', () => {
  it('follows each partition from the batches, and forgets partitions given away', async () => {
    const { consumer, emit } = fakeConsumer();
    trackConsumerLag(consumer, 'public-status.health');
    emit('GROUP_JOIN', { memberAssignment: { 'platform.t.v1': [0, 1] } });
    expect(await lagLines()).toEqual([
      'kafka_consumer_lag{group="public-status.health",topic="platform.t.v1",partition="0"} 0',
      'kafka_consumer_lag{group="public-status.health",topic="platform.t.v1",partition="1"} 0',
    ]);
    // A batch of offsets 10..19 with the high watermark at 50: 40 messages wait while it runs, 30 after.
    const batch = {
      topic: 'platform.t.v1',
      partition: 1,
      highWatermark: '50',
      offsetLagLow: '39',
      offsetLag: '30',
    };
    emit('START_BATCH_PROCESS', batch);
    expect(await lagLines()).toContain(
      'kafka_consumer_lag{group="public-status.health",topic="platform.t.v1",partition="1"} 40',
    );
    emit('END_BATCH_PROCESS', { ...batch, duration: 5 });
    expect(await lagLines()).toContain(
      'kafka_consumer_lag{group="public-status.health",topic="platform.t.v1",partition="1"} 30',
    );
    emit('GROUP_JOIN', { memberAssignment: { 'platform.t.v1': [0] } });
    expect(await lagLines()).toEqual([
      'kafka_consumer_lag{group="public-status.health",topic="platform.t.v1",partition="0"} 0',
    ]);
    emit('STOP', {});
    expect(await lagLines()).toEqual([]);
  });
});
