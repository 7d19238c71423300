import { randomUUID } from 'node:crypto';
import { defineContract, type EventOf } from '@platform/messaging';
import type { Inbox, InboxOutcome, Queryable } from '@platform/outbox';
import type { ConsumerContext, ContractHandler } from './contract-handler';
import { DeliveryAbandoned } from './consumer.errors';
import { ConsumerMetrics } from './consumer.metrics';
import type { DeadLetterMessage, OriginalMessage } from './dead-letter';
import { DeliveryProcessor, type DeliveryReport, type Route } from './delivery-processor';

const Note = defineContract({
  topic: 'test.note.written.v1',
  eventType: 'test.note.written',
  schemaVersion: 1,
  aggregateType: 'test.note',
  key: 'noteId',
  schema: { noteId: { type: 'string' }, text: { type: 'string', maxLength: 20 } },
});
type NoteV1 = EventOf<typeof Note>;

/** An inbox with real transaction semantics in memory: writes land only when the effect returns. */
class MemoryInbox implements Pick<Inbox, 'handleOnce'> {
  readonly seen = new Set<string>();
  readonly committed: string[] = [];
  /** Thrown by the transaction itself (BEGIN, the inbox insert), before the handler runs. */
  failures: unknown[] = [];

  async handleOnce<R>(
    eventId: string,
    _topic: string,
    effect: (tx: Queryable) => Promise<R>,
  ): Promise<InboxOutcome<R>> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    if (this.seen.has(eventId)) return { duplicate: true };
    const pending: string[] = [];
    const tx: Queryable = { query: async (sql) => void pending.push(sql) };
    const result = await effect(tx);
    this.seen.add(eventId);
    this.committed.push(...pending);
    return { duplicate: false, result };
  }
}

class ScriptedHandler implements ContractHandler<NoteV1> {
  readonly calls: ConsumerContext[] = [];
  /** Errors to throw on the next runs, in order; then success. */
  failures: unknown[] = [];

  readonly handle = async (event: NoteV1, ctx: ConsumerContext): Promise<void> => {
    this.calls.push(ctx);
    await ctx.tx.query(`write ${event.noteId}`);
    const next = this.failures.shift();
    if (next !== undefined) throw next;
  };
}

function message(value: unknown, headers: Record<string, string> = {}, offset = '7'): OriginalMessage {
  return {
    topic: Note.topic,
    partition: 2,
    offset,
    key: Buffer.from('n-1'),
    value: Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value)),
    headers: { 'event-id': randomUUID(), 'tenant-id': 'acme', 'request-id': 'req-9', ...headers },
  };
}

function setup(attempts = 3) {
  const inbox = new MemoryInbox();
  const handler = new ScriptedHandler();
  const metrics = new ConsumerMetrics();
  const dead: DeadLetterMessage[] = [];
  const reports: DeliveryReport[] = [];
  let deadLetterFailures = 0;
  const route: Route = {
    contract: Note as Route['contract'],
    handler: handler as unknown as Route['handler'],
    retry: { attempts, baseMs: 1, maxMs: 2 },
  };
  const processor = new DeliveryProcessor({
    group: 'svc.notes',
    routes: new Map([[Note.topic, route]]),
    inbox,
    deadLetter: async (m) => {
      if (deadLetterFailures > 0) {
        deadLetterFailures--;
        throw new Error('broker refused');
      }
      dead.push(m);
    },
    metrics,
    onOutcome: (r) => reports.push(r),
  });
  const heartbeats = { n: 0 };
  const abort = new AbortController();
  const control = { heartbeat: async () => void heartbeats.n++, signal: abort.signal };
  return {
    inbox,
    handler,
    metrics,
    dead,
    reports,
    processor,
    control,
    abort,
    heartbeats,
    failDeadLetter: (n: number) => (deadLetterFailures = n),
    series: () => metrics.get('svc.notes', Note.topic),
  };
}

describe('DeliveryProcessor', () => {
  it('hands the validated event and the delivery context to the handler, once per event id', async () => {
    const t = setup();
    const m = message({ noteId: 'n-1', text: 'hello' });
    const first = await t.processor.process(m, t.control);
    const again = await t.processor.process(m, t.control);
    expect(first).toMatchObject({ outcome: 'handled', attempts: 1, partition: 2, offset: '7' });
    expect(again.outcome).toBe('duplicate');
    expect(t.handler.calls).toHaveLength(1);
    expect(t.handler.calls[0]).toMatchObject({
      eventId: m.headers?.['event-id'],
      tenantId: 'acme',
      requestId: 'req-9',
      key: 'n-1',
      attempt: 1,
      topic: Note.topic,
    });
    expect(t.inbox.committed).toEqual(['write n-1']);
    expect(t.series()).toMatchObject({ handled: 1, duplicates: 1, failures: 0, deadLettered: 0 });
    expect(t.series()?.lastHandledAt).toEqual(expect.any(String));
    expect(t.reports.map((r) => r.outcome)).toEqual(['handled', 'duplicate']);
  });

  it.each([
    ['not JSON', Buffer.from('{"noteId": '), {}, 'payload is not JSON'],
    ['a contract violation', { noteId: 'n-1', text: 'x'.repeat(21) }, {}, 'text is longer than 20'],
    ['an unknown field', { noteId: 'n-1', text: 'a', extra: 1 }, {}, 'extra is not part of the contract'],
    ['no event id', { noteId: 'n-1', text: 'a' }, { 'event-id': '' }, 'event-id header'],
    ['another schema version', { noteId: 'n-1', text: 'a' }, { 'schema-version': '2' }, 'schema version 2'],
  ])('dead-letters %s at once, untouched, without running the handler', async (_, value, headers, reason) => {
    const t = setup();
    const m = message(value, headers);
    const report = await t.processor.process(m, t.control);
    expect(report).toMatchObject({ outcome: 'dead-lettered', attempts: 0 });
    expect(t.handler.calls).toHaveLength(0);
    expect(t.dead).toHaveLength(1);
    expect(t.dead[0].value?.equals(m.value as Buffer)).toBe(true);
    expect(t.dead[0].key?.toString()).toBe('n-1');
    expect(t.dead[0].headers).toMatchObject({
      ...m.headers,
      'original-topic': Note.topic,
      'original-partition': '2',
      'original-offset': '7',
      'dead-letter-consumer': 'svc.notes',
      'dead-letter-attempts': '0',
    });
    expect(String(t.dead[0].headers['dead-letter-reason'])).toContain(reason);
    expect(t.series()).toMatchObject({ invalid: 1, deadLettered: 1, failures: 0, retries: 0, handled: 0 });
  });

  it('retries a failing handler with back-off and heartbeats; its failed runs leave no writes', async () => {
    const t = setup(3);
    t.handler.failures = [new Error('one'), new Error('two')];
    const report = await t.processor.process(message({ noteId: 'n-1', text: 'a' }), t.control);
    expect(report).toMatchObject({ outcome: 'handled', attempts: 3 });
    expect(t.handler.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(t.inbox.committed).toEqual(['write n-1']);
    expect(t.heartbeats.n).toBeGreaterThanOrEqual(2);
    expect(t.series()).toMatchObject({ handled: 1, failures: 2, retries: 2, deadLettered: 0 });
  });

  it('dead-letters after the last attempt with the handler error as the reason', async () => {
    const t = setup(3);
    t.handler.failures = [1, 2, 3].map((n) => new Error(`boom ${n}`));
    const report = await t.processor.process(message({ noteId: 'n-1', text: 'a' }), t.control);
    expect(report).toMatchObject({ outcome: 'dead-lettered', attempts: 3 });
    expect(t.handler.calls).toHaveLength(3);
    expect(t.inbox.committed).toEqual([]);
    expect(t.dead[0].headers).toMatchObject({ 'dead-letter-attempts': '3' });
    expect(String(t.dead[0].headers['dead-letter-reason'])).toContain('boom 3');
    expect(t.series()).toMatchObject({ handled: 0, failures: 3, retries: 2, deadLettered: 1, invalid: 0 });
  });

  it('waits out a database outage without spending attempts', async () => {
    const t = setup(2);
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    t.inbox.failures = [outage, outage, outage];
    t.handler.failures = [{ code: '57P01', message: 'terminating connection' }];
    const report = await t.processor.process(message({ noteId: 'n-1', text: 'a' }), t.control);
    expect(report).toMatchObject({ outcome: 'handled', attempts: 5 });
    expect(t.dead).toHaveLength(0);
    expect(t.series()).toMatchObject({ handled: 1, failures: 4, retries: 4 });
  });

  it("spends attempts on the handler's own socket failures (an HTTP call), not only on exceptions", async () => {
    const t = setup(2);
    const http = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
    t.handler.failures = [http, http];
    const report = await t.processor.process(message({ noteId: 'n-1', text: 'a' }), t.control);
    expect(report).toMatchObject({ outcome: 'dead-lettered', attempts: 2 });
    expect(String(t.dead[0].headers['dead-letter-reason'])).toContain('ECONNREFUSED 10.0.0.1:443');
  });

  it('keeps the message while the dead-letter topic refuses it, then reports it dead-lettered', async () => {
    const t = setup();
    t.failDeadLetter(3);
    const report = await t.processor.process(message('not an object'), t.control);
    expect(report.outcome).toBe('dead-lettered');
    expect(t.dead).toHaveLength(1);
    expect(t.series()).toMatchObject({ deadLetterErrors: 3, deadLettered: 1 });
  });

  it('gives up without returning when stopped while the dead-letter topic refuses the message', async () => {
    const t = setup();
    t.failDeadLetter(Number.MAX_SAFE_INTEGER);
    const pending = t.processor.process(message('not an object'), t.control);
    while ((t.series()?.deadLetterErrors ?? 0) < 2) await new Promise((r) => setImmediate(r));
    t.abort.abort();
    await expect(pending).rejects.toBeInstanceOf(DeliveryAbandoned);
    expect(t.dead).toHaveLength(0);
    expect(t.series()?.deadLettered).toBe(0);
  });

  it('gives up without returning when stopped between handler attempts', async () => {
    const t = setup(5);
    t.handler.failures = [new Error('one')];
    t.abort.abort();
    await expect(
      t.processor.process(message({ noteId: 'n-1', text: 'a' }), t.control),
    ).rejects.toBeInstanceOf(DeliveryAbandoned);
    expect(t.inbox.committed).toEqual([]);
    expect(t.reports).toEqual([]);
  });

  it('lets a lost partition (a failing heartbeat) end the wait, leaving the message uncommitted', async () => {
    const t = setup(3);
    t.handler.failures = [new Error('one')];
    const rebalancing = new Error('The group is rebalancing');
    const control = { ...t.control, heartbeat: () => Promise.reject(rebalancing) };
    await expect(t.processor.process(message({ noteId: 'n-1', text: 'a' }), control)).rejects.toBe(
      rebalancing,
    );
    expect(t.inbox.committed).toEqual([]);
  });

  it('does not let a failing outcome observer turn a handled message into a redelivery', async () => {
    const t = setup();
    const metrics = new ConsumerMetrics();
    const processor = new DeliveryProcessor({
      group: 'g',
      routes: new Map([
        [
          Note.topic,
          {
            contract: Note as Route['contract'],
            handler: t.handler as never,
            retry: { attempts: 1, baseMs: 1, maxMs: 1 },
          },
        ],
      ]),
      inbox: t.inbox,
      deadLetter: async () => undefined,
      metrics,
      onOutcome: () => {
        throw new Error('observer bug');
      },
    });
    await expect(processor.process(message({ noteId: 'n-1', text: 'a' }), t.control)).resolves.toMatchObject({
      outcome: 'handled',
    });
  });
});
