import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
  type LabelValues,
} from 'prom-client';

/**
 * The process's one Prometheus registry (prom-client). Every lib adds its metrics here when it is
 * loaded and `/metrics` serves all of it, so one scrape of a pod sees its HTTP, database, Kafka,
 * outbox and webhook figures together. One per process, not per Nest app: a test that runs several
 * apps in one process sees their series summed, which is what a metric of a process means.
 */
export const metricsRegistry = new Registry();

let processMetrics = false;

/** Node's own figures (CPU, resident memory, heap, event-loop delay, GC, handles), once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** The text exposition of everything registered, and its content type. */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  collectProcessMetrics();
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/**
 * A metric is registered once per process: a lib's module-level definition normally runs once, and
 * these return the registered one when the same name comes again (a lib loaded twice, e.g. by two
 * Jest module registries sharing nothing but this one would have failed with "already registered").
 */
function registered<M>(name: string, type: string, create: () => M): M {
  const existing = metricsRegistry.getSingleMetric(name);
  if (!existing) return create();
  const kind = (existing as unknown as { type?: string }).type ?? existing.constructor.name.toLowerCase();
  if (kind !== type) throw new Error(`metric ${name} is already registered as a ${kind}`);
  return existing as M;
}

export function counter<L extends string>(cfg: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
  return registered(cfg.name, 'counter', () => new Counter({ ...cfg, registers: [metricsRegistry] }));
}

export function gauge<L extends string>(cfg: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
  return registered(cfg.name, 'gauge', () => new Gauge({ ...cfg, registers: [metricsRegistry] }));
}

export function histogram<L extends string>(cfg: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
  return registered(cfg.name, 'histogram', () => new Histogram({ ...cfg, registers: [metricsRegistry] }));
}

/** One series of a gauge read at scrape time. */
export interface Sample<L extends string> {
  labels: LabelValues<L>;
  value: number;
}

/**
 * Gauges whose values live elsewhere (a connection pool's counts, the outbox's lag in the database),
 * read when Prometheus scrapes rather than kept up to date. Sources come and go with the apps of the
 * process (`add` returns the removal); a source that answers `undefined` is gone (a closed pool) and
 * is dropped, one that throws has no series in that scrape (its gauges go absent, which alerts can
 * tell from zero) and is asked again next time. All gauges of a group read a source once per scrape, however many gauges it feeds.
 */
export class ScrapedGauges<S, G extends string, L extends string> {
  private readonly sources = new Set<S>();
  private pending?: Promise<Map<S, Partial<Record<G, Sample<L>[]>> | undefined>>;

  constructor(
    gauges: Record<G, { name: string; help: string }>,
    labelNames: readonly L[],
    private readonly read: (
      source: S,
    ) => Promise<Partial<Record<G, Sample<L>[]>> | undefined> | Partial<Record<G, Sample<L>[]>> | undefined,
  ) {
    // The collect callbacks share one read of every source per scrape (prom-client collects the
    // metrics of a registry concurrently): the first starts it, the others wait for the same one.
    const readAll = () => this.readAll();
    for (const key of Object.keys(gauges) as G[]) {
      gauge<L>({
        ...gauges[key],
        labelNames,
        async collect() {
          const all = await readAll();
          this.reset();
          for (const samples of all.values())
            for (const s of samples?.[key] ?? []) this.set(s.labels, s.value);
        },
      });
    }
  }

  add(source: S): () => void {
    this.sources.add(source);
    return () => void this.sources.delete(source);
  }

  private readAll(): Promise<Map<S, Partial<Record<G, Sample<L>[]>> | undefined>> {
    this.pending ??= (async () => {
      const entries = await Promise.all(
        [...this.sources].map(async (s) => {
          try {
            const v = await this.read(s);
            if (v === undefined) this.sources.delete(s);
            return [s, v] as const;
          } catch {
            // Unreadable this time (the database is away): no series this scrape, the source stays.
            return [s, undefined] as const;
          }
        }),
      );
      return new Map(entries);
    })().finally(() => (this.pending = undefined));
    return this.pending;
  }
}
