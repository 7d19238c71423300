import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  EventHeader,
  ServiceHealthReported,
  assertValid,
  type ServiceHealthReportedV1,
} from '@platform/messaging';
import { Periodic } from '@platform/scheduling';
import { failingChecks, type Readiness, type ReadinessReport } from './readiness';
import type { ReportMessage, ReportSink } from './report-sink';

/** What the readiness of a report rests on. */
export type ReportBasis =
  /** The app's readiness checks (its /health/ready). */
  | 'ready'
  /**
   * The process answering (its /health/live): for the gateway, whose /health/ready aggregates every
   * service behind it, so reporting that would turn one service's outage into the gateway's.
   */
  | 'live';

export interface HealthReporterSettings {
  instance: string;
  /** A report at least this often; 0: no reports at all. */
  heartbeatMs: number;
  /** Readiness is evaluated this often between heartbeats (or at each heartbeat when that is sooner). */
  checkMs: number;
  basis: ReportBasis;
}

export interface HealthReporterStatus {
  /** Reports the broker acknowledged. */
  published: number;
  /** Reports that never reached the broker (Kafka down, or replaced by a newer one while waiting). */
  dropped: number;
  /** True from the first failed send until the next acknowledged one. */
  outage: boolean;
  /** The readiness of the last report built, null before the first. */
  lastStatus: 'up' | 'down' | null;
}

const INSTANCE_MAX = 128;
const ERROR_MAX = 200;
const STOP_GRACE_MS = 1000;

/**
 * Publishes `platform.service.health-reported.v1` straight to Kafka: one report at start, one every
 * heartbeat, and one at once when readiness changes (up <-> down, or a different set of failing checks),
 * whether the change was seen by its own evaluation or by an orchestrator's probe of /health/ready.
 *
 * It never holds up the app: nothing awaits it, one send at a time with only the newest report waiting
 * behind it (older waiting ones are dropped and counted), and a Kafka outage is logged once, when it
 * begins, and once when reports flow again.
 */
export class HealthReporter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('HealthReporter');
  private readonly counters: HealthReporterStatus = {
    published: 0,
    dropped: 0,
    outage: false,
    lastStatus: null,
  };
  /** This process's own report (Periodic, process scope): the first at start, then every check. */
  private readonly ticks = new Periodic({
    name: 'HealthReporter',
    scope: 'process',
    everyMs: () => Math.min(this.settings.checkMs, this.settings.heartbeatMs),
    firstRound: 0,
    work: () => this.tick(),
  });
  private started = false;
  private stopped = false;
  private evaluating = false;
  private lastSignature: string | null = null;
  private lastBuiltAt = 0;
  private waiting: ReportMessage | null = null;
  private sending: Promise<void> | null = null;
  private droppedInOutage = 0;

  constructor(
    private readonly readiness: Readiness,
    private readonly sink: ReportSink,
    private readonly settings: HealthReporterSettings,
  ) {}

  get service(): string {
    return this.readiness.service;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.settings.heartbeatMs === 0 || this.started || this.stopped) return;
    this.started = true;
    if (this.settings.basis === 'ready') this.readiness.onEvaluated((r) => this.observe(r));
    this.ticks.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Not awaited: an evaluation in progress must not hold up the shutdown (it reports to no one now).
    void this.ticks.stop();
    this.waiting = null;
    // A report on its way gets a moment to land; a shutdown never waits out an unreachable broker.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.sending?.catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS))),
    ]);
    clearTimeout(timer);
    await this.sink.close();
  }

  status(): HealthReporterStatus {
    return { ...this.counters };
  }

  /** Evaluates readiness (or takes liveness) and lets `observe` decide whether to publish. */
  private async tick(): Promise<void> {
    if (this.stopped || this.evaluating) return;
    if (this.settings.basis === 'live') {
      this.observe({ service: this.service, status: 'up', checks: {} });
      return;
    }
    this.evaluating = true;
    try {
      // The listener registered in start() receives the report.
      await this.readiness.evaluate();
    } catch (err) {
      this.logger.error(`readiness evaluation failed: ${(err as Error).message}`);
    } finally {
      this.evaluating = false;
    }
  }

  private observe(report: ReadinessReport): void {
    if (this.stopped) return;
    const signature = `${report.status}:${failingChecks(report).sort().join(',')}`;
    const now = Date.now();
    const changed = signature !== this.lastSignature;
    if (!changed && now - this.lastBuiltAt < this.settings.heartbeatMs) return;
    this.lastSignature = signature;
    this.lastBuiltAt = now;
    this.counters.lastStatus = report.status;
    let message: ReportMessage;
    try {
      message = this.message(this.payload(report, now));
    } catch (err) {
      // The same check the relay and every consumer run: a report that violates the contract is a bug.
      this.logger.error(`health report not sent: ${(err as Error).message}`);
      return;
    }
    this.enqueue(message);
  }

  private payload(report: ReadinessReport, at: number): ServiceHealthReportedV1 {
    const checks = Object.fromEntries(
      Object.entries(report.checks).map(([name, r]) => [
        name,
        r.error === undefined ? r : { ...r, error: r.error.slice(0, ERROR_MAX) },
      ]),
    );
    return {
      service: this.service,
      instance: this.settings.instance.slice(0, INSTANCE_MAX),
      status: report.status,
      checks,
      reportedAt: new Date(at).toISOString(),
    };
  }

  private enqueue(report: ReportMessage): void {
    if (this.waiting) this.drop(1);
    this.waiting = report;
    if (!this.sending) this.sending = this.pump().finally(() => (this.sending = null));
  }

  private async pump(): Promise<void> {
    while (this.waiting && !this.stopped) {
      const report = this.waiting;
      this.waiting = null;
      try {
        await this.sink.send(report);
        this.counters.published++;
        if (this.counters.outage) {
          this.counters.outage = false;
          this.logger.log(`health reports reach Kafka again (${this.droppedInOutage} dropped meanwhile)`);
          this.droppedInOutage = 0;
        }
      } catch (err) {
        this.drop(1);
        if (!this.counters.outage) {
          this.counters.outage = true;
          this.logger.warn(`health reports are dropped until Kafka answers again: ${(err as Error).message}`);
        }
      }
    }
  }

  private drop(n: number): void {
    this.counters.dropped += n;
    this.droppedInOutage += n;
  }

  private message(report: ServiceHealthReportedV1): ReportMessage {
    assertValid(ServiceHealthReported, report);
    return {
      topic: ServiceHealthReported.topic,
      key: ServiceHealthReported.keyOf(report),
      value: JSON.stringify(report),
      headers: {
        [EventHeader.EventId]: randomUUID(),
        [EventHeader.EventType]: ServiceHealthReported.eventType,
        [EventHeader.SchemaVersion]: String(ServiceHealthReported.schemaVersion),
        [EventHeader.AggregateType]: ServiceHealthReported.aggregateType,
        [EventHeader.OccurredAt]: report.reportedAt,
        [EventHeader.ContentType]: 'application/json',
      },
    };
  }
}
