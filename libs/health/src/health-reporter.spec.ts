import { ServiceHealthReported, violations } from '@platform/messaging';
import { HealthReporter, type HealthReporterSettings } from './health-reporter';
import { Readiness } from './readiness';
import type { ReportMessage, ReportSink } from './report-sink';

class MemorySink implements ReportSink {
  readonly sent: ReportMessage[] = [];
  failing = false;
  /** When set, sends wait until `release()`. */
  private gate?: Promise<void>;
  private open?: () => void;

  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  async send(m: ReportMessage): Promise<void> {
    await this.gate;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:9092');
    this.sent.push(m);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const flush = () => new Promise((r) => setImmediate(r));
const payloads = (sink: MemorySink) =>
  sink.sent.map((m) => JSON.parse(m.value) as { status: string; checks: Record<string, unknown> });

describe('HealthReporter', () => {
  let database: boolean;
  let readiness: Readiness;
  let sink: MemorySink;
  let reporter: HealthReporter;
  const settings: HealthReporterSettings = {
    instance: 'lending-1',
    heartbeatMs: 60_000,
    checkMs: 60_000,
    basis: 'ready',
  };

  beforeEach(() => {
    database = true;
    readiness = new Readiness('lending', [
      {
        name: 'database',
        run: async () => {
          if (!database) throw new Error('connection terminated');
        },
      },
    ]);
    sink = new MemorySink();
  });

  afterEach(async () => {
    await reporter?.stop();
  });

  it('reports at start, keyed by service, with the headers consumers dedupe on, valid per contract', async () => {
    reporter = new HealthReporter(readiness, sink, settings);
    reporter.start();
    await flush();
    await flush();
    expect(sink.sent).toHaveLength(1);
    const [m] = sink.sent;
    expect(m.topic).toBe(ServiceHealthReported.topic);
    expect(m.key).toBe('lending');
    expect(m.headers['event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.headers['schema-version']).toBe('1');
    const payload = JSON.parse(m.value) as unknown;
    expect(violations(ServiceHealthReported, payload)).toEqual([]);
    expect(payload).toMatchObject({ service: 'lending', instance: 'lending-1', status: 'up' });
  });

  it('reports a readiness change seen by a probe at once, naming the failing check, and not again until it changes', async () => {
    reporter = new HealthReporter(readiness, sink, settings);
    reporter.start();
    await flush();
    database = false;
    await readiness.evaluate();
    await readiness.evaluate();
    await flush();
    database = true;
    await readiness.evaluate();
    await flush();
    expect(payloads(sink).map((p) => p.status)).toEqual(['up', 'down', 'up']);
    expect(payloads(sink)[1].checks.database).toMatchObject({
      status: 'down',
      error: 'connection terminated',
    });
  });

  it('keeps only the newest report while a send is stuck, counting the ones it replaced', async () => {
    reporter = new HealthReporter(readiness, sink, settings);
    sink.hold();
    reporter.start();
    await flush();
    for (const up of [false, true, false]) {
      database = up;
      await readiness.evaluate();
    }
    sink.release();
    await flush();
    await flush();
    expect(payloads(sink).map((p) => p.status)).toEqual(['up', 'down']);
    expect(reporter.status()).toMatchObject({ published: 2, dropped: 2 });
  });

  it('drops and counts reports while Kafka is down, and recovers by itself', async () => {
    reporter = new HealthReporter(readiness, sink, settings);
    sink.failing = true;
    reporter.start();
    await flush();
    database = false;
    await readiness.evaluate();
    await flush();
    expect(reporter.status()).toMatchObject({ published: 0, dropped: 2, outage: true });
    sink.failing = false;
    database = true;
    await readiness.evaluate();
    await flush();
    expect(reporter.status()).toMatchObject({ published: 1, dropped: 2, outage: false });
  });

  it('reports liveness only when its basis is live (the gateway), whatever its readiness checks say', async () => {
    database = false;
    reporter = new HealthReporter(readiness, sink, { ...settings, basis: 'live' });
    reporter.start();
    await readiness.evaluate();
    await flush();
    expect(payloads(sink)).toEqual([expect.objectContaining({ status: 'up', checks: {} })]);
  });

  it('sends nothing when the heartbeat is 0', async () => {
    reporter = new HealthReporter(readiness, sink, { ...settings, heartbeatMs: 0 });
    reporter.start();
    await flush();
    expect(sink.sent).toEqual([]);
  });
});
