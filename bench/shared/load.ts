/**
 * The load generator of the HTTP benches (the same client as gateway-cache.bench.ts and
 * calendar-gateway.bench.ts): one keep-alive agent with C sockets, C workers each sending its next
 * request as soon as the previous one is answered, for a fixed time. Counts every answer by status,
 * treats anything but 2xx (and a failed connection, status -1) as an error and prints the first answer
 * of each such status, so a figure is never quietly made of 401s or 429s.
 */
import { Agent, request } from 'node:http';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

export const print = (line: string): void => void process.stdout.write(`${line}\n`);

export interface HttpCall {
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON text; sent with its content type and length. */
  body?: string;
}

export interface Outcome {
  status: number;
}

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  statuses: Record<string, number>;
  errors: number;
}

/** Called when a measured run starts; what it returns is called at the end for a note on the line. */
export type Watch = () => () => string;

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** The value at rank floor(q * n) of an ascending list (NaN when empty). */
export function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

export class LoadGenerator {
  private readonly agent: Agent;
  /** Every non-2xx answer of every run, warm-ups included: the bench exits non-zero when any. */
  errors = 0;
  private readonly shown = new Set<string>();

  constructor(readonly concurrency = CONCURRENCY) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  }

  call(c: HttpCall, label = ''): Promise<Outcome> {
    const headers = c.body
      ? {
          ...c.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(c.body)),
        }
      : c.headers;
    return new Promise((resolveOutcome) => {
      const req = request(
        {
          agent: this.agent,
          host: c.url.hostname,
          port: c.url.port,
          path: `${c.url.pathname}${c.url.search}`,
          method: c.method ?? 'GET',
          headers,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const failed = !isSuccess(status);
          let text = '';
          res.on('data', (chunk: Buffer) => {
            if (failed && text.length < 2000) text += chunk.toString();
          });
          res.on('end', () => {
            if (failed) this.failed(label, status, text);
            resolveOutcome({ status });
          });
        },
      );
      // A failed request counts as status -1 rather than stopping the run.
      req.on('error', (err) => {
        this.failed(label, -1, err.message);
        resolveOutcome({ status: -1 });
      });
      req.end(c.body);
    });
  }

  private failed(label: string, status: number, text: string): void {
    this.errors++;
    const key = `${label} ${status}`;
    if (this.shown.has(key)) return;
    this.shown.add(key);
    print(`  ! ${label || 'request'}: first ${status} answer: ${text.slice(0, 300)}`);
  }

  /**
   * `next(n, worker)` makes request number n (0, 1, ... across all workers) and returns its outcome;
   * the run ends after `seconds`, or after `max` requests.
   */
  async run(
    name: string,
    next: (n: number, worker: number) => Promise<Outcome>,
    opts: { seconds?: number; report?: boolean; max?: number; watch?: Watch } = {},
  ): Promise<Figure> {
    const seconds = opts.seconds ?? SECONDS;
    const noted = opts.watch?.();
    const max = opts.max ?? Infinity;
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let n = 0;
    const until = Date.now() + seconds * 1000;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: this.concurrency }, async (_, worker) => {
        while (Date.now() < until && n < max) {
          const i = n++;
          const t = process.hrtime.bigint();
          const out = await next(i, worker);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
        }
      }),
    );
    const sec = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    const figure: Figure = {
      name,
      rps: Math.round(latencies.length / sec),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      requests: latencies.length,
      statuses: Object.fromEntries(statuses),
      errors: [...statuses].filter(([s]) => !isSuccess(s)).reduce((sum, [, c]) => sum + c, 0),
    };
    if (opts.report ?? true) {
      print(
        `${name.padEnd(40)} ${String(figure.rps).padStart(6)} req/s  p50 ${figure.p50.toFixed(2)} ms  ` +
          `p99 ${figure.p99.toFixed(2)} ms  (${figure.requests} requests, ${this.concurrency} concurrent, ` +
          `statuses ${JSON.stringify(figure.statuses)}${noted ? `, ${noted()}` : ''})`,
      );
    }
    return figure;
  }

  /** A silent warm-up of WARMUP_SECONDS, then the measured run of SECONDS. */
  async measure(
    name: string,
    next: (n: number, worker: number) => Promise<Outcome>,
    watch?: Watch,
  ): Promise<Figure> {
    if (WARMUP_SECONDS > 0) await this.run(name, next, { seconds: WARMUP_SECONDS, report: false });
    return this.run(name, next, { watch });
  }

  destroy(): void {
    this.agent.destroy();
  }
}
