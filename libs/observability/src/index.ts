export {
  metricsRegistry,
  collectProcessMetrics,
  scrapeMetrics,
  counter,
  gauge,
  histogram,
  ScrapedGauges,
  type Sample,
} from './metrics';
export { startMetricsServer, type MetricsServer } from './metrics-server';
export { trackConnectionPool, type PoolCounts } from './pool-metrics';
export { rateLimitRejections } from './rate-limit-metrics';
export {
  httpObserver,
  httpRequestDuration,
  expressRoute,
  tenantOf,
  UNMATCHED_ROUTE,
  CLIENT_CLOSED,
  type HttpObserverOptions,
} from './http-observer';
export {
  PlatformLogger,
  LogRecord,
  logCorrelation,
  logFormat,
  type LogFormat,
  type PlatformLoggerOptions,
} from './logging';
export { currentRequestId, runWithRequestId } from './request-context';
export { withCallerTraceContext } from './trace-pass-through';
export { redactSecrets } from './redact';
