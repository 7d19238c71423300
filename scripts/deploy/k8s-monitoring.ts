/**
 * Prometheus Operator objects for the platform (issue 15, "Observability"; docs/runbooks/dashboards.md):
 * one ServiceMonitor scraping every app's `metrics` Service port, and the alerting rules, both derived
 * from the service registry. scripts/gen-deploy.ts writes them into k8s/base/shared;
 * scripts/check-manifests.sh validates them (k8s/schemas) and runs `promtool check rules` on the rules.
 */
import { SERVICES, type ServiceDefinition } from '@platform/registry';

const APPS: readonly ServiceDefinition[] = SERVICES;
const HEADER = '# Generated from libs/registry by scripts/gen-deploy.ts (npm run gen:deploy); do not edit.';

/**
 * The Services' `metrics` port. The services serve /metrics on their own port (3000: only the gateway
 * and Prometheus reach it, and the gateway has no route to it), so their `metrics` Service port points
 * there; the gateway's own port is public through the ingress, so it serves /metrics on this port
 * instead (GatewayConfig METRICS_PORT, the OpenTelemetry Prometheus exporter's customary port).
 */
export const METRICS_PORT = 9464;
export const SCRAPE_INTERVAL = '30s';

const jobs = APPS.map((s) => s.name).join('|');

/**
 * The platform's namespace in the alerts on cluster-wide series (kube-state-metrics' pods, `up`), where
 * another team's `gateway-...` pod or `gateway` job would otherwise count. The base has no namespace:
 * each overlay's `replacements` writes its own (the PrometheusRule's metadata.namespace) over this
 * placeholder, which must therefore be the expression's first quoted string (kustomize splits it on
 * `"` and replaces the second part). scripts/check-manifests.sh refuses a rendered rule that still holds
 * the placeholder or names another namespace, and its promtool unit tests
 * (scripts/prometheus-rules.test.yaml) prove another namespace's pods are ignored.
 */
export const NAMESPACE_PLACEHOLDER = 'set-by-overlay';
const inNamespace = `namespace="${NAMESPACE_PLACEHOLDER}"`;

export function serviceMonitor(): string {
  return `${HEADER}
# Prometheus (prometheus-operator) scrapes every app's /metrics through its Service's \`metrics\` port: the
# services on their own port, the gateway on METRICS_PORT. The job label is the Service's name. No
# credentials: the NetworkPolicy allow-metrics-scrape admits only Prometheus's pods of the monitoring
# namespace. A Prometheus that selects ServiceMonitors by label (kube-prometheus-stack: \`release\`) needs
# that label added in the overlay (docs/runbooks/dashboards.md).
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: platform
  labels:
    app.kubernetes.io/part-of: platform
spec:
  selector:
    matchLabels:
      app.kubernetes.io/part-of: platform
  endpoints:
    - port: metrics
      path: /metrics
      interval: ${SCRAPE_INTERVAL}
      scrapeTimeout: 10s
`;
}

export interface AlertRule {
  alert: string;
  expr: string;
  /** How long the condition must hold before it fires; none: at once (the expression has its window). */
  for?: string;
  severity: 'warning' | 'critical';
  summary: string;
  description: string;
  runbook: string;
}

/** Requests that are not probes or scrapes (the gateway's /health/ready answers 503 for a service down). */
const API = 'route!~"/health.*|/metrics"';

export const ALERTS: readonly AlertRule[] = [
  {
    alert: 'PlatformOutboxLagging',
    expr: 'max by (namespace, schema) (outbox_oldest_pending_seconds) > 60',
    for: '5m',
    severity: 'warning',
    summary: 'Events of {{ $labels.schema }} wait more than a minute for Kafka',
    description:
      'The oldest unpublished event of schema {{ $labels.schema }} is {{ $value | humanizeDuration }} old: ' +
      'the relay cannot publish (Kafka unreachable) or cannot keep up. Consumers see the same delay.',
    runbook: 'docs/runbooks/dashboards.md#outbox',
  },
  {
    alert: 'PlatformOutboxDeadLetters',
    expr: 'max by (namespace, schema) (outbox_dead_events) > 0',
    for: '1m',
    severity: 'critical',
    summary: 'The relay gave up on {{ $value }} event(s) of {{ $labels.schema }}',
    description:
      'Events moved to the dead-letter topic stay undelivered until a person redrives them; their ' +
      'aggregates may be blocked behind them.',
    runbook: 'docs/runbooks/redrive-dead-letters.md',
  },
  {
    alert: 'PlatformConsumerDeadLetters',
    expr: 'sum by (namespace, job, group, topic) (increase(consumer_messages_dead_lettered_total[15m])) > 0',
    severity: 'warning',
    summary: 'Consumer group {{ $labels.group }} dead-lettered messages of {{ $labels.topic }}',
    description:
      'Messages refused by the contract or out of attempts went to the dead-letter topic in the last 15 minutes.',
    runbook: 'docs/runbooks/redrive-dead-letters.md',
  },
  {
    // libs/webhooks initialises each worker's {schema, outcome} series at 0 when it starts, so the first
    // dead delivery of a pod is an increase from 0 (a series born at 1 would show none).
    alert: 'PlatformWebhookDeliveriesDead',
    expr: 'sum by (namespace, job, schema) (increase(webhook_deliveries_total{outcome="dead"}[15m])) > 0',
    severity: 'warning',
    summary: 'Webhook deliveries of {{ $labels.schema }} ran out of attempts',
    description: 'A receiver kept failing until the last attempt; its owner will not get those events.',
    runbook: 'docs/runbooks/dashboards.md#webhooks',
  },
  {
    alert: 'PlatformHighErrorRatio',
    expr:
      `sum by (namespace, job) (rate(http_request_duration_seconds_count{status=~"5..", ${API}}[5m]))\n` +
      `  / sum by (namespace, job) (rate(http_request_duration_seconds_count{${API}}[5m]))\n` +
      '  > 0.05',
    for: '10m',
    severity: 'critical',
    summary: '{{ $labels.job }} answers more than 5% of requests with a 5xx',
    description:
      '{{ $value | humanizePercentage }} of its requests (probes excluded) failed over 5 minutes. Its log ' +
      'lines of level error carry the request ids; the gateway answers 502/504 when a service is away.',
    runbook: 'docs/runbooks/dashboards.md#requests',
  },
  {
    alert: 'PlatformTargetDown',
    expr: `up{${inNamespace}, job=~"${jobs}"} == 0`,
    for: '5m',
    severity: 'critical',
    summary: 'Prometheus cannot scrape {{ $labels.job }} ({{ $labels.pod }})',
    description: 'The pod does not answer /metrics: it is down, restarting, or its network policy changed.',
    runbook: 'docs/runbooks/dashboards.md#pods',
  },
  {
    alert: 'PlatformPodNotReady',
    expr: `sum by (namespace, pod) (kube_pod_status_ready{${inNamespace}, condition="false", pod=~"(${jobs})-.*"}) > 0`,
    for: '10m',
    severity: 'warning',
    summary: '{{ $labels.pod }} has not been ready for 10 minutes',
    description:
      'Its readiness probe fails (database or broker unreachable, or a migration still running): it gets no ' +
      'traffic. Needs kube-state-metrics.',
    runbook: 'docs/runbooks/dashboards.md#pods',
  },
  {
    alert: 'PlatformDatabasePoolExhausted',
    expr: 'max by (namespace, pod, pool) (db_pool_waiting_clients) > 0',
    for: '5m',
    severity: 'warning',
    summary: 'Queries of {{ $labels.pod }} wait for a database connection',
    description:
      'Pool {{ $labels.pool }} has had queries waiting for 5 minutes: DB_POOL_MAX is too small for the ' +
      'load, or queries hold connections too long.',
    runbook: 'docs/runbooks/dashboards.md#database',
  },
];

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((l) => `${' '.repeat(spaces)}${l}`)
    .join('\n');

/** One alerting rule as YAML (a block scalar for the expression, so PromQL needs no quoting). */
function ruleYaml(r: AlertRule): string {
  const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
  return `- alert: ${r.alert}
  expr: |-
${indent(r.expr, 4)}${r.for ? `\n  for: ${r.for}` : ''}
  labels:
    severity: ${r.severity}
  annotations:
    summary: ${q(r.summary)}
    description: ${q(r.description)}
    runbook: ${r.runbook}`;
}

export function prometheusRules(): string {
  return `${HEADER}
# Alerts on the platform's own metrics (docs/runbooks/dashboards.md says what each means and what to do).
# \`promtool check rules\` checks them in scripts/check-manifests.sh. A Prometheus that selects rules by
# label (kube-prometheus-stack: \`release\`) needs that label added in the overlay.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: platform
  labels:
    app.kubernetes.io/part-of: platform
spec:
  groups:
    - name: platform
      rules:
${indent(ALERTS.map(ruleYaml).join('\n'), 8)}
`;
}
