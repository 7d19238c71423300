export { HealthModule, type HealthCheckDefinition, type HealthReportingOptions } from './health.module';
export {
  Readiness,
  failingChecks,
  CHECK_TIMEOUT_MS,
  type HealthCheck,
  type CheckResult,
  type NamedCheck,
  type ReadinessReport,
} from './readiness';
export {
  HealthReporter,
  type HealthReporterSettings,
  type HealthReporterStatus,
  type ReportBasis,
} from './health-reporter';
export { KafkaReportSink, type ReportMessage, type ReportSink } from './report-sink';
export { databaseCheck, brokerCheck } from './standard-checks';
export { MetricsModule, MetricsListener, type MetricsPortConfig } from './metrics.module';
