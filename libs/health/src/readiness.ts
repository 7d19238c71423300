import type { OnModuleDestroy } from '@nestjs/common';

/** Resolves when the dependency answers; rejects with the reason when it does not. */
export type HealthCheck = () => Promise<void>;

export interface NamedCheck {
  name: string;
  run: HealthCheck;
}

export interface CheckResult {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

export interface ReadinessReport {
  service: string;
  status: 'up' | 'down';
  checks: Record<string, CheckResult>;
}

/** A check that has not answered by then counts as down: a probe must answer within its own time-out. */
export const CHECK_TIMEOUT_MS = 2500;

async function timed(check: NamedCheck, timeoutMs: number): Promise<CheckResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Date.now() - started };
  } catch (err) {
    return { status: 'down', latencyMs: Date.now() - started, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the app's readiness checks, all at once. The /health/ready controller and the health reporter
 * share it, so a probe that sees the app go unready also tells the reporter at once, and the report on
 * Kafka says exactly what the probe said.
 */
export class Readiness implements OnModuleDestroy {
  private readonly listeners: ((report: ReadinessReport) => void)[] = [];
  private stopping = false;

  constructor(
    readonly service: string,
    private readonly checks: readonly NamedCheck[],
  ) {}

  /**
   * Nest's first shutdown hook (a signal, or `app.close()`): the replica answers unready from now on, so
   * whatever routes by readiness stops sending it work while its requests in flight finish.
   */
  onModuleDestroy(): void {
    this.stopping = true;
  }

  async evaluate(): Promise<ReadinessReport> {
    // Neither the checks (the pools are about to close) nor the listeners: a replica going away is not
    // an outage, so the health reporter's last report stays what it was (decision 0028).
    if (this.stopping) return this.shuttingDown();
    const results = await Promise.all(
      this.checks.map(async (c) => [c.name, await timed(c, CHECK_TIMEOUT_MS)] as const),
    );
    const report: ReadinessReport = {
      service: this.service,
      status: results.every(([, r]) => r.status === 'up') ? 'up' : 'down',
      checks: Object.fromEntries(results),
    };
    for (const listen of this.listeners) listen(report);
    return report;
  }

  private shuttingDown(): ReadinessReport {
    return {
      service: this.service,
      status: 'down',
      checks: { shutdown: { status: 'down', latencyMs: 0, error: 'shutting down' } },
    };
  }

  /** Called after every evaluation but those during shutdown, whoever asked for it. */
  onEvaluated(listener: (report: ReadinessReport) => void): void {
    this.listeners.push(listener);
  }
}

/** Names of the checks that failed, in the order they were declared. */
export function failingChecks(report: Pick<ReadinessReport, 'checks'>): string[] {
  return Object.entries(report.checks)
    .filter(([, r]) => r.status === 'down')
    .map(([name]) => name);
}
