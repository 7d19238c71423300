import { ConsumerMetrics } from './consumer.metrics';

describe('ConsumerMetrics', () => {
  it('counts per group and topic and hands out copies', () => {
    const m = new ConsumerMetrics();
    m.track('b.group', 'x.y.z.v1');
    m.markHandled('a.group', 'x.y.z.v1', new Date('2026-01-02T03:04:05.678Z'));
    m.increment('a.group', 'x.y.z.v1', 'retries', 2);
    m.increment('a.group', 'x.y.z.v1', 'duplicates');
    const copy = m.get('a.group', 'x.y.z.v1');
    if (copy) copy.handled = 99;
    expect(m.snapshot()).toEqual([
      {
        group: 'a.group',
        topic: 'x.y.z.v1',
        handled: 1,
        duplicates: 1,
        failures: 0,
        retries: 2,
        invalid: 0,
        deadLettered: 0,
        deadLetterErrors: 0,
        lastHandledAt: '2026-01-02T03:04:05.678Z',
      },
      expect.objectContaining({ group: 'b.group', handled: 0, lastHandledAt: null }),
    ]);
  });

  it('renders Prometheus text with escaped labels, counters and the last-handled gauge', () => {
    const m = new ConsumerMetrics();
    m.track('never.handled', 't.a.b.v1');
    m.markHandled('g"1', 't.a.b.v1', new Date(1_700_000_000_500));
    m.increment('g"1', 't.a.b.v1', 'deadLettered', 3);
    const text = m.prometheus();
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('# TYPE consumer_messages_handled_total counter');
    expect(text).toContain('consumer_messages_handled_total{group="g\\"1",topic="t.a.b.v1"} 1\n');
    expect(text).toContain('consumer_messages_dead_lettered_total{group="g\\"1",topic="t.a.b.v1"} 3\n');
    expect(text).toContain('consumer_messages_handled_total{group="never.handled",topic="t.a.b.v1"} 0\n');
    expect(text).toContain('# TYPE consumer_last_handled_timestamp_seconds gauge');
    expect(text).toContain(
      'consumer_last_handled_timestamp_seconds{group="g\\"1",topic="t.a.b.v1"} 1700000000.500\n',
    );
    expect(text).not.toContain('consumer_last_handled_timestamp_seconds{group="never.handled"');
  });
});
