import { hostname } from 'node:os';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { DiagConsoleLogger, DiagLogLevel, context, diag, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_URL_FULL,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
} from '@opentelemetry/semantic-conventions';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import {
  otlpTracesUrl,
  resourceAttributes,
  samplerRatio,
  tracesExporters,
  type TracingConfig,
} from './tracing.config';
import { propagator } from './tracing.propagation';
import { redactTarget } from './tracing.redact';

/** Probes and scrapes (every few seconds from every kubelet and Prometheus) are not traced. */
const UNTRACED = /^\/(?:health|metrics)(?:[/?]|$)/;

export interface TracingHandle {
  /** Exports what has ended so far (at shutdown: the last spans of the process). */
  flush(): Promise<void>;
  /** Stops the instrumentations, exports what is left and unregisters the global providers. */
  shutdown(): Promise<void>;
}

export interface SdkOptions {
  /** Instead of the configured exporters (tests); their spans are processed one by one. */
  exporters?: SpanExporter[];
  /** Patch `http` and `pg` (false in tests that only want the API backed by a provider). */
  instrument?: boolean;
}

function sampler(cfg: TracingConfig): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(samplerRatio(cfg));
  switch (cfg.OTEL_TRACES_SAMPLER) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function processors(cfg: TracingConfig, opts: SdkOptions): SpanProcessor[] {
  if (opts.exporters) return opts.exporters.map((exporter) => new SimpleSpanProcessor({ exporter }));
  return tracesExporters(cfg).map((name) => {
    const exporter: SpanExporter =
      name === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter({ url: otlpTracesUrl(cfg) });
    return new BatchSpanProcessor({
      exporter,
      scheduledDelayMillis: cfg.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: cfg.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: cfg.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: Math.min(cfg.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, cfg.OTEL_BSP_MAX_QUEUE_SIZE),
    });
  });
}

/** The request line's URL as a client span records it, with credentials replaced. */
function outgoingUrl(o: RequestOptions): string {
  const protocol = o.protocol ?? 'http:';
  const host = o.hostname ?? o.host ?? 'localhost';
  const port = o.port ? `:${o.port}` : '';
  const { path, query } = redactTarget(o.path ?? '/');
  return `${protocol}//${host}${port}${path}${query === undefined ? '' : `?${query}`}`;
}

function instrumentations() {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED.test(req.url ?? '/'),
      // Only calls made while handling something traced: no root span per webhook poll or SDK export.
      requireParentforOutgoingSpans: true,
      // The request id joins a trace to the logs of the same request (libs/envelope request-id).
      headersToSpanAttributes: {
        server: { requestHeaders: ['x-request-id'], responseHeaders: ['x-request-id'] },
      },
      startIncomingSpanHook: (req: IncomingMessage) => {
        const { path, query } = redactTarget(req.url ?? '/');
        return query === undefined
          ? { [ATTR_URL_PATH]: path }
          : { [ATTR_URL_PATH]: path, [ATTR_URL_QUERY]: query };
      },
      startOutgoingSpanHook: (o: RequestOptions) => ({ [ATTR_URL_FULL]: outgoingUrl(o) }),
    }),
    // Statements inside a traced request or message only (the relay's and workers' polling is not),
    // and never their parameter values.
    new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
  ];
}

/**
 * Registers the global context manager (AsyncLocalStorage), propagator (W3C trace context and
 * baggage), tracer provider and, unless told otherwise, the http and pg instrumentations. Call before
 * `http` and `pg` are loaded: the instrumentations patch them as they are required.
 */
export function startSdk(cfg: TracingConfig, serviceName: string, opts: SdkOptions = {}): TracingHandle {
  const level = cfg.OTEL_LOG_LEVEL.toUpperCase() as keyof typeof DiagLogLevel;
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel[level] ?? DiagLogLevel.WARN);
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(propagator(cfg));
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({
        [ATTR_SERVICE_INSTANCE_ID]: `${hostname()}-${process.pid}`,
        ...resourceAttributes(cfg, serviceName),
      }),
    ),
    sampler: sampler(cfg),
    spanProcessors: processors(cfg, opts),
  });
  trace.setGlobalTracerProvider(provider);
  const unregister =
    opts.instrument === false
      ? () => undefined
      : registerInstrumentations({ tracerProvider: provider, instrumentations: instrumentations() });
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}

/** Tracing into memory, for tests that look at the spans their code made. */
export interface InMemoryTracing extends TracingHandle {
  spans(): ReadableSpan[];
  reset(): void;
}

export function startInMemorySdk(cfg: TracingConfig, serviceName: string): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const handle = startSdk(cfg, serviceName, { exporters: [exporter], instrument: false });
  return { ...handle, spans: () => exporter.getFinishedSpans(), reset: () => exporter.reset() };
}
