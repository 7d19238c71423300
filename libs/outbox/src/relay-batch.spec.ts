import {
  chunkByBytes,
  isTransient,
  planBatch,
  PoisonError,
  toMessage,
  topicMessages,
  type OutboxRow,
} from './relay-batch';

const row = (seq: number, aggregate: string, topic = 't.a.v1', payload: unknown = { n: seq }): OutboxRow => ({
  seq: String(seq),
  id: `id-${seq}`,
  topic,
  event_type: 'x',
  schema_version: 1,
  aggregate_type: 'event',
  aggregate_id: aggregate,
  tenant_id: seq % 2 ? 'acme' : null,
  request_id: null,
  payload,
  occurred_at: '2026-11-23T10:00:00.000Z',
  attempts: 0,
  failures: 0,
});

describe('relay batch planning', () => {
  it('holds back the later rows of an aggregate behind a row that fails its contract, and only those', () => {
    const rows = [row(1, 'A'), row(2, 'B'), row(3, 'A'), row(4, 'C'), row(5, 'A')];
    const plan = planBatch(rows, (r) => (r.seq === '3' ? 'bad payload' : undefined));
    expect(plan.toSend.map((r) => r.seq)).toEqual(['1', '2', '4']);
    expect([...plan.poisoned]).toEqual([['3', 'bad payload']]);
    expect(plan.heldBack.map((r) => r.seq)).toEqual(['5']);
    expect([...plan.blocked]).toEqual(['event\u0000A']);
  });

  it('splits a batch into produce requests under the byte limit, in order, an oversized message alone', () => {
    const big = 'x'.repeat(600);
    const outgoing = [1, 2, 3, 4, 5].map((n) => {
      const r = row(n, `A${n}`, 't.a.v1', n === 3 ? { big: big.repeat(3) } : { big });
      return { row: r, message: toMessage(r) };
    });
    const chunks = chunkByBytes(outgoing, 2000);
    expect(chunks.flat().map((o) => o.row.seq)).toEqual(['1', '2', '3', '4', '5']);
    expect(chunks.map((c) => c.map((o) => o.row.seq))).toEqual([['1', '2'], ['3'], ['4', '5']]);
  });

  it('groups messages by topic, keeping row order inside each topic', () => {
    const rows = [row(1, 'A', 't1'), row(2, 'B', 't2'), row(3, 'A', 't1')];
    const grouped = topicMessages(rows.map((r) => ({ row: r, message: toMessage(r) })));
    expect(grouped.map((g) => [g.topic, g.messages.length])).toEqual([
      ['t1', 2],
      ['t2', 1],
    ]);
    expect(grouped[0].topic).toBe('t1');
    expect(grouped[0].messages.map((m) => JSON.parse(m.value).n)).toEqual([1, 3]);
  });

  it('keys a message by its aggregate and carries the tenant only when there is one', () => {
    expect(toMessage(row(1, 'A')).key).toBe('A');
    expect(Object.values(toMessage(row(1, 'A')).headers)).toContain('acme');
    expect(Object.values(toMessage(row(2, 'A')).headers)).not.toContain('acme');
  });

  it('tells a broker outage from a refused message', () => {
    expect(isTransient({ name: 'KafkaJSConnectionError' })).toBe(true);
    expect(
      isTransient({ name: 'KafkaJSNumberOfRetriesExceeded', cause: { name: 'KafkaJSRequestTimeoutError' } }),
    ).toBe(true);
    expect(isTransient({ name: 'KafkaJSProtocolError', retriable: false, type: 'MESSAGE_TOO_LARGE' })).toBe(
      false,
    );
    expect(isTransient(new PoisonError('bad'))).toBe(false);
  });
});
