import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';

const URL_PATTERN = /^https?:\/\/[^\s/]+(\/\S*)?$/;
const RATIO = /^(0(\.\d+)?|1(\.0*)?|\.\d+)$/;

/**
 * The standard OpenTelemetry variables the tracing set-up reads (the SDK's names and meanings,
 * opentelemetry.io "SDK environment variables"), validated at boot like every app setting. One
 * difference from the specification: tracing is **off unless asked for** (`OTEL_TRACES_EXPORTER`, or an
 * OTLP endpoint, is set), where the specification's default exporter is `otlp`. The OTLP exporter itself
 * also reads `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`, `_TIMEOUT`, `_COMPRESSION` and the certificate
 * variables (docs/runbooks/dashboards.md, "Traces").
 */
export class TracingConfig {
  /** `true` turns tracing off whatever else is set. */
  @IsBoolean() OTEL_SDK_DISABLED = false;
  /** `otlp` (OTLP over HTTP, JSON), `console` (spans on stdout, for development), `none`; a list may combine. */
  @Matches(/^((none|otlp|console)(,(none|otlp|console))*)?$/, {
    message: 'OTEL_TRACES_EXPORTER must be otlp, console or none (or a comma-separated list of them)',
  })
  OTEL_TRACES_EXPORTER = '';
  /** Base URL of the collector's OTLP/HTTP receiver (port 4318); `/v1/traces` is appended. */
  @ValidateIf((c: TracingConfig) => c.OTEL_EXPORTER_OTLP_ENDPOINT !== '')
  @Matches(URL_PATTERN, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT = '';
  /** The full traces URL, used as is; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  @ValidateIf((c: TracingConfig) => c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== '')
  @Matches(URL_PATTERN, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = '';
  /**
   * Only `http/json` is built in (@opentelemetry/exporter-trace-otlp-http): a collector's 4318 port takes
   * it. `grpc` or `http/protobuf` would need another exporter package, so they fail at boot rather than
   * sending JSON to a port that expects something else.
   */
  @IsIn(['', 'http/json'], { message: 'OTEL_EXPORTER_OTLP_PROTOCOL: only http/json is supported' })
  OTEL_EXPORTER_OTLP_PROTOCOL = '';
  @IsIn(['', 'http/json'], { message: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: only http/json is supported' })
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = '';
  /** Defaults to the app's name (gateway, calendar, ...). */
  @IsString() OTEL_SERVICE_NAME = '';
  /** `key=value,key2=value2`, values percent-encoded, e.g. `deployment.environment.name=production`. */
  @Matches(/^([^=,\s]+=[^,]*(,[^=,\s]+=[^,]*)*)?$/, {
    message: 'OTEL_RESOURCE_ATTRIBUTES must be key=value[,key=value...]',
  })
  OTEL_RESOURCE_ATTRIBUTES = '';
  @IsIn([
    'always_on',
    'always_off',
    'traceidratio',
    'parentbased_always_on',
    'parentbased_always_off',
    'parentbased_traceidratio',
  ])
  OTEL_TRACES_SAMPLER = 'parentbased_always_on';
  /** The ratio of the `*traceidratio` samplers, 0 to 1 (default 1). */
  @ValidateIf((c: TracingConfig) => c.OTEL_TRACES_SAMPLER_ARG !== '')
  @Matches(RATIO, { message: 'OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1' })
  OTEL_TRACES_SAMPLER_ARG = '';
  /** W3C `tracecontext` (traceparent, tracestate) and `baggage`; `none` propagates nothing. */
  @Matches(/^(tracecontext|baggage|none)(,(tracecontext|baggage|none))*$/, {
    message: 'OTEL_PROPAGATORS: tracecontext, baggage or none (comma-separated)',
  })
  OTEL_PROPAGATORS = 'tracecontext,baggage';
  /** Batch span processor: delay between exports, export time-out, queue and batch sizes. */
  @IsInt() @Min(1) @Max(60_000) OTEL_BSP_SCHEDULE_DELAY = 5000;
  @IsInt() @Min(100) @Max(300_000) OTEL_BSP_EXPORT_TIMEOUT = 30_000;
  @IsInt() @Min(1) @Max(1_000_000) OTEL_BSP_MAX_QUEUE_SIZE = 2048;
  @IsInt() @Min(1) @Max(1_000_000) OTEL_BSP_MAX_EXPORT_BATCH_SIZE = 512;
  /** The SDK's own diagnostics (failed exports, dropped spans), on stderr. */
  @Matches(/^(none|error|warn|info|debug|verbose|all)$/i, {
    message: 'OTEL_LOG_LEVEL must be none, error, warn, info, debug, verbose or all',
  })
  OTEL_LOG_LEVEL = 'warn';
}

export type TracesExporterName = 'otlp' | 'console';

/** The exporters to start; none (tracing off) unless an exporter or an OTLP endpoint is configured. */
export function tracesExporters(cfg: TracingConfig): TracesExporterName[] {
  if (cfg.OTEL_SDK_DISABLED) return [];
  if (cfg.OTEL_TRACES_EXPORTER) {
    const names = new Set(cfg.OTEL_TRACES_EXPORTER.split(','));
    if (names.has('none')) return [];
    return [...names] as TracesExporterName[];
  }
  return cfg.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || cfg.OTEL_EXPORTER_OTLP_ENDPOINT ? ['otlp'] : [];
}

/** Where OTLP spans go: the traces endpoint as is, else the base endpoint + `/v1/traces`, else localhost. */
export function otlpTracesUrl(cfg: TracingConfig): string {
  if (cfg.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return cfg.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = cfg.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** The `*traceidratio` samplers' ratio. */
export function samplerRatio(cfg: TracingConfig): number {
  return cfg.OTEL_TRACES_SAMPLER_ARG === '' ? 1 : Number(cfg.OTEL_TRACES_SAMPLER_ARG);
}

/** OTEL_RESOURCE_ATTRIBUTES as attributes (values percent-decoded); OTEL_SERVICE_NAME wins for service.name. */
export function resourceAttributes(cfg: TracingConfig, serviceName: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of cfg.OTEL_RESOURCE_ATTRIBUTES.split(',').filter(Boolean)) {
    const i = pair.indexOf('=');
    const key = pair.slice(0, i).trim();
    const raw = pair.slice(i + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      /* not percent-encoded after all: keep it as written */
    }
    attributes[key] = value;
  }
  attributes['service.name'] = cfg.OTEL_SERVICE_NAME || attributes['service.name'] || serviceName;
  return attributes;
}
