/**
 * What an operations team expects next to each Deployment (docs/decisions/0028-kubernetes-operations.md),
 * derived from the service registry and the event contracts so that a new service or topic needs no
 * hand edit: sizing and shutdown timing, HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicies,
 * the gateway's Ingress and the Strimzi KafkaTopics. scripts/gen-deploy.ts writes them into k8s/base.
 */
import { CONTRACTS, DEAD_LETTER_TOPIC, type TopicContract } from '@platform/messaging';
import {
  GATEWAY,
  GATEWAY_DEFAULT_LIMITS,
  GATEWAY_HEALTH_LIMITS,
  ROUTED_SERVICES,
  SERVICES,
  type GatewayExposure,
  type ServiceDefinition,
} from '@platform/registry';

import { METRICS_PORT } from './k8s-monitoring';

const APPS: readonly ServiceDefinition[] = SERVICES;
export const CONTAINER_PORT = 3000;
const MiB = 1024 * 1024;

// --- sizing ---------------------------------------------------------------------------------------------

/**
 * Memory requested per replica where the registry names none: every app runs with the same V8 limits
 * (RUNTIME_NODE_OPTIONS), and measured 139-177 MiB idle and 160-225 MiB after a mixed load through the
 * gateway (decision 0028, "Resources").
 */
export const DEFAULT_MEMORY_REQUEST_MIB = 256;
/**
 * One limit for every app: above what V8 may hold with `--max-old-space-size=160 --max-semi-space-size=16`
 * (160 MiB old space + 48 MiB young generation + ~100 MiB code, stacks and native heap) with room for the
 * Buffers outside the heap (streamed uploads of up to 25 MiB, PDF rendering, Kafka batches). Reaching it
 * means a leak outside the heap, which a restart is the right answer to.
 */
export const MEMORY_LIMIT_MIB = 512;
/** Scheduled share of a core per replica; the autoscaler adds replicas at 75% of it on average. */
export const CPU_REQUEST = '250m';
export const CPU_TARGET_PERCENT = 75;
/** Production replicas: two keep an app up through a node drain (PodDisruptionBudget maxUnavailable 1). */
export const MIN_REPLICAS = 2;
export const DEFAULT_MAX_REPLICAS = 6;

export const memoryRequestMiB = (s: ServiceDefinition) =>
  s.kubernetes?.memoryRequestMiB ?? DEFAULT_MEMORY_REQUEST_MIB;
export const maxReplicas = (s: ServiceDefinition) => s.kubernetes?.maxReplicas ?? DEFAULT_MAX_REPLICAS;

// --- graceful shutdown ----------------------------------------------------------------------------------

/**
 * The preStop pause: the pod keeps serving while its endpoint leaves every kube-proxy and the ingress
 * controller's upstream list (they learn it asynchronously, usually within a few seconds); only then does
 * SIGTERM start Nest's shutdown: readiness answers 503, every answer carries `Connection: close` and idle
 * kept-alive connections are closed (libs/envelope http-drain), then the listener closes.
 */
export const PRESTOP_SLEEP_SECONDS = 10;
/**
 * What the apps' shutdown hooks may take after the last request ended: consumers leave their group
 * (libs/consumer, at most 2 x 5 s), workers finish the round in flight (a webhook attempt times out after
 * 10 s), the health reporter's last report (1 s), pools close.
 */
export const SHUTDOWN_HOOKS_SECONDS = 20;

function longestRequestMs(exposure: GatewayExposure): number {
  const own = exposure.limits?.timeoutMs ?? GATEWAY_DEFAULT_LIMITS.timeoutMs;
  const routes = (exposure.routes ?? []).map((r) => r.limits?.timeoutMs ?? own);
  return Math.max(GATEWAY_HEALTH_LIMITS.timeoutMs, ...(exposure.prefixes.length ? [own] : []), ...routes);
}

/**
 * The longest request the app may be serving when SIGTERM arrives: the gateway's idle budget of its
 * slowest route (decision 0013); the gateway itself the slowest of all. Nest's shutdown waits for
 * requests in flight before it closes the server, at most this long: it is the app's HTTP_DRAIN_MS, after
 * which the connections still open are cut.
 */
export function longestRequestSeconds(s: ServiceDefinition): number {
  const exposures = s.gateway ? [s.gateway] : ROUTED_SERVICES.map((r): GatewayExposure => r.gateway);
  return Math.ceil(Math.max(...exposures.map(longestRequestMs)) / 1000);
}

export const terminationGraceSeconds = (s: ServiceDefinition) =>
  PRESTOP_SLEEP_SECONDS + longestRequestSeconds(s) + SHUTDOWN_HOOKS_SECONDS;

// --- shared YAML pieces ---------------------------------------------------------------------------------

const HEADER = '# Generated from libs/registry by scripts/gen-deploy.ts (npm run gen:deploy); do not edit.';
const label = (s: ServiceDefinition) => `app.kubernetes.io/name: ${s.name}`;

/** Peers outside the namespace, as the production overlay expects them (the dev overlay patches them). */
export const PEERS = {
  ingressNamespace: 'ingress-nginx',
  ingressPods: 'app.kubernetes.io/name: ingress-nginx',
  kafkaNamespace: 'kafka',
  kafkaCluster: 'platform-kafka',
  postgresCluster: 'platform-db',
  monitoringNamespace: 'monitoring',
  prometheusPods: 'app.kubernetes.io/name: prometheus',
} as const;

const namespacePeer = (ns: string) => `namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: ${ns}`;

// --- autoscaling and disruption -------------------------------------------------------------------------

export function autoscaler(s: ServiceDefinition): string {
  return `${HEADER}
# Replicas follow CPU; memory is no signal for Node (V8 keeps its heap). Needs metrics-server.
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${s.name}
  labels:
    ${label(s)}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${s.name}
  minReplicas: ${MIN_REPLICAS}
  maxReplicas: ${maxReplicas(s)}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: ${CPU_TARGET_PERCENT}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies:
        - type: Pods
          value: 1
          periodSeconds: 60
`;
}

export function disruptionBudget(s: ServiceDefinition): string {
  return `${HEADER}
# A node drain takes one replica at a time; with one replica (dev) it may still drain.
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${s.name}
  labels:
    ${label(s)}
spec:
  maxUnavailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      ${label(s)}
`;
}

// --- network policies -----------------------------------------------------------------------------------

/** Public addresses only: the private ranges and link-local (cloud metadata) stay closed, as for webhooks. */
const PUBLIC_V4 = {
  cidr: '0.0.0.0/0',
  except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'],
};
const PUBLIC_V6 = { cidr: '::/0', except: ['fc00::/7', 'fe80::/10'] };

export function networkPolicy(s: ServiceDefinition): string {
  const from =
    s.role === 'gateway'
      ? `        # Only the ingress controller reaches the gateway: the one way in from outside.
        - ${namespacePeer(PEERS.ingressNamespace)}
          podSelector:
            matchLabels:
              ${PEERS.ingressPods}`
      : `        - podSelector:
            matchLabels:
              ${label(GATEWAY)}`;
  const egress: string[] = [];
  if (s.role === 'gateway') {
    egress.push(`    # The gateway forwards to every routed app.
    - to:
        - podSelector:
            matchExpressions:
              - key: app.kubernetes.io/name
                operator: In
                values: [${ROUTED_SERVICES.map((r) => r.name).join(', ')}]
      ports:
        - port: ${CONTAINER_PORT}
          protocol: TCP`);
  }
  const external = s.externalEgress ?? [];
  if (external.length) {
    egress.push(`    # ${external.map((e) => `${e.port}: ${e.why}`).join('; ')}
    - to:
        - ipBlock:
            cidr: ${PUBLIC_V4.cidr}
            except: [${PUBLIC_V4.except.map((c) => `'${c}'`).join(', ')}]
        - ipBlock:
            cidr: '${PUBLIC_V6.cidr}'
            except: [${PUBLIC_V6.except.map((c) => `'${c}'`).join(', ')}]
      ports:
${external.map((e) => `        - port: ${e.port}\n          protocol: TCP`).join('\n')}`);
  }
  return `${HEADER}
# What may reach ${s.name} and where it may connect besides DNS, PostgreSQL and Kafka (k8s/base/shared).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${s.name}
  labels:
    ${label(s)}
spec:
  podSelector:
    matchLabels:
      ${label(s)}
  policyTypes: [Ingress${egress.length ? ', Egress' : ''}]
  ingress:
    - from:
${from}
      ports:
        - port: ${CONTAINER_PORT}
          protocol: TCP
${egress.length ? `  egress:\n${egress.join('\n')}\n` : ''}`;
}

const appsWith = (flag: 'database' | 'kafka') =>
  APPS.filter((s) => s[flag])
    .map((s) => s.name)
    .join(', ');

/** The namespace-wide policies: deny by default, DNS, the data stores, metric scrapes. */
export function sharedNetworkPolicies(): string {
  return `${HEADER}
# Deny by default: every pod of the namespace gets only what a policy below or its app's own allows.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
---
# Name lookups through the cluster DNS (CoreDNS keeps the k8s-app: kube-dns label).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-dns
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress:
    - to:
        - ${namespacePeer('kube-system')}
          podSelector:
            matchLabels:
              k8s-app: kube-dns
      ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
---
# The apps with a database reach PostgreSQL: the CloudNativePG cluster of the production overlay. For a
# managed PostgreSQL outside the cluster, replace the peer with its ipBlock.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: egress-postgresql
spec:
  podSelector:
    matchExpressions:
      - key: app.kubernetes.io/name
        operator: In
        values: [${appsWith('database')}]
  policyTypes: [Egress]
  egress:
    - to:
        - podSelector:
            matchLabels:
              cnpg.io/cluster: ${PEERS.postgresCluster}
      ports:
        - port: 5432
          protocol: TCP
---
# The apps that talk to Kafka reach the Strimzi brokers (plain 9092, TLS 9093).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: egress-kafka
spec:
  podSelector:
    matchExpressions:
      - key: app.kubernetes.io/name
        operator: In
        values: [${appsWith('kafka')}]
  policyTypes: [Egress]
  egress:
    - to:
        - ${namespacePeer(PEERS.kafkaNamespace)}
          podSelector:
            matchLabels:
              strimzi.io/cluster: ${PEERS.kafkaCluster}
      ports:
        - port: 9092
          protocol: TCP
        - port: 9093
          protocol: TCP
---
# Prometheus scrapes /metrics (k8s/base/shared/service-monitor.yaml): the services on their own port,
# the gateway on its metrics port. Inside the cluster only, and no credentials asked: nothing outside
# reaches an app but through the ingress and the gateway, which routes no /metrics.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-metrics-scrape
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/part-of: platform
  policyTypes: [Ingress]
  ingress:
    - from:
        - ${namespacePeer(PEERS.monitoringNamespace)}
          podSelector:
            matchLabels:
              ${PEERS.prometheusPods}
      ports:
        - port: ${CONTAINER_PORT}
          protocol: TCP
        - port: ${METRICS_PORT}
          protocol: TCP
`;
}

// --- ingress --------------------------------------------------------------------------------------------

function allLimits(): { maxBodyBytes: number; timeoutMs: number }[] {
  return ROUTED_SERVICES.flatMap((s) => {
    const e: GatewayExposure = s.gateway;
    const own = { ...GATEWAY_DEFAULT_LIMITS, ...e.limits };
    return [own, ...(e.routes ?? []).map((r) => ({ ...own, ...r.limits }))];
  });
}

/** nginx's outer bounds: the largest body and the longest idle wait any route of the gateway allows. */
export function ingressBounds(): { bodyMiB: number; timeoutSeconds: number } {
  const limits = allLimits();
  return {
    bodyMiB: Math.ceil(Math.max(...limits.map((l) => l.maxBodyBytes)) / MiB),
    timeoutSeconds: Math.ceil(Math.max(...limits.map((l) => l.timeoutMs)) / 1000) + 5,
  };
}

export function ingress(): string {
  const { bodyMiB, timeoutSeconds } = ingressBounds();
  return `${HEADER}
# The one way in: ingress-nginx to the gateway, which applies every route's own limits, CORS and rate
# limits. nginx only bounds what the gateway's most generous route allows, and streams request bodies
# (no buffering to disk) so the gateway counts them as they arrive. The partner header API_KEY has an
# underscore, which nginx drops unless the controller's ConfigMap sets enable-underscores-in-headers: "true"
# (k8s/examples/ingress-nginx-controller-configmap.yaml, docs/runbooks/deploy.md). The overlays set the
# host and TLS.
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: ${GATEWAY.name}
  labels:
    ${label(GATEWAY)}
  annotations:
    nginx.ingress.kubernetes.io/proxy-body-size: ${bodyMiB}m
    nginx.ingress.kubernetes.io/proxy-request-buffering: 'off'
    nginx.ingress.kubernetes.io/proxy-read-timeout: '${timeoutSeconds}'
    nginx.ingress.kubernetes.io/proxy-send-timeout: '${timeoutSeconds}'
spec:
  ingressClassName: nginx
  rules:
    - host: platform.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: ${GATEWAY.name}
                port:
                  name: http
`;
}

// --- Kafka over TLS -------------------------------------------------------------------------------------

/** Strimzi's Secret of the cluster CA certificate (`<cluster>-cluster-ca-cert`, key `ca.crt`). */
export const KAFKA_CLUSTER_CA_SECRET = `${PEERS.kafkaCluster}-cluster-ca-cert`;
export const KAFKA_CLUSTER_CA_DIR = '/etc/platform/kafka-ca';

/**
 * The production overlay's patch (a region of its kustomization): every app that talks to Kafka mounts
 * the cluster CA certificate read-only and names it in KAFKA_SSL_CA_FILE (libs/kafka), so TLS to the
 * brokers trusts Strimzi's own CA. The Secret lives in Kafka's namespace; the deploy runbook copies it
 * into the platform's under the same name.
 */
export function kafkaClusterCaPatch(apps: readonly ServiceDefinition[]): string[] {
  const names = apps.filter((s) => s.kafka).map((s) => s.name);
  if (!names.length) return [];
  return `# Kafka over TLS trusts Strimzi's cluster CA (docs/runbooks/deploy.md): the Secret
# ${KAFKA_CLUSTER_CA_SECRET}, copied from the namespace ${PEERS.kafkaNamespace}, in every app that talks to Kafka.
- target:
    kind: Deployment
    name: ${names.join('|')}
  patch: |-
    - op: add
      path: /spec/template/spec/volumes/-
      value:
        name: kafka-cluster-ca
        secret:
          secretName: ${KAFKA_CLUSTER_CA_SECRET}
          items:
            - key: ca.crt
              path: ca.crt
    - op: add
      path: /spec/template/spec/containers/0/volumeMounts/-
      value:
        name: kafka-cluster-ca
        mountPath: ${KAFKA_CLUSTER_CA_DIR}
        readOnly: true
    - op: add
      path: /spec/template/spec/containers/0/env/-
      value:
        name: KAFKA_SSL_CA_FILE
        value: ${KAFKA_CLUSTER_CA_DIR}/ca.crt`.split('\n');
}

// --- Kafka topics ---------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
/** Partitions of every topic: parallelism of a consumer group, order kept per key (aggregate id). */
export const DEFAULT_PARTITIONS = 6;
/**
 * How long a topic keeps messages: business events (outbox) a week, so a consumer that was down or must
 * replay catches up; health heartbeats (direct) a day, only the latest matter; dead letters a month, the
 * time to find the cause and redrive (docs/runbooks/redrive-dead-letters.md).
 */
export const RETENTION_DAYS = { outbox: 7, direct: 1, deadLetter: 30 } as const;
export const TOPIC_REPLICAS = 3;
export const MIN_INSYNC_REPLICAS = 2;

export interface TopicPlan {
  topic: string;
  partitions: number;
  retentionDays: number;
  why: string;
}

/** Each contract's topic and the dead-letter topic, with the settings their KafkaTopic gets. */
export function topicPlans(): TopicPlan[] {
  const contracts = [...CONTRACTS.values()] as TopicContract<unknown>[];
  const plans = contracts.map((c): TopicPlan => {
    const consumers = APPS.filter((s) => s.consumes.includes(c.topic) || c.consumers.includes(s.name));
    // A consumer group spreads over at most as many replicas as the topic has partitions.
    const partitions = Math.max(DEFAULT_PARTITIONS, ...consumers.map(maxReplicas));
    return {
      topic: c.topic,
      partitions,
      retentionDays: RETENTION_DAYS[c.delivery],
      why: `${c.delivery === 'outbox' ? 'business events through the outbox' : 'sent directly'}; consumed by ${
        consumers.map((s) => s.name).join(', ') || 'no app of this platform'
      }`,
    };
  });
  plans.push({
    topic: DEAD_LETTER_TOPIC,
    partitions: DEFAULT_PARTITIONS,
    retentionDays: RETENTION_DAYS.deadLetter,
    why: 'dead letters of the relay and every consumer; read by operators only',
  });
  return plans.sort((a, b) => a.topic.localeCompare(b.topic));
}

export function kafkaTopics(): string {
  const docs = topicPlans().map(
    (t) => `# ${t.why}
apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaTopic
metadata:
  name: ${t.topic}
  labels:
    strimzi.io/cluster: ${PEERS.kafkaCluster}
    app.kubernetes.io/part-of: platform
spec:
  partitions: ${t.partitions}
  replicas: ${TOPIC_REPLICAS}
  config:
    cleanup.policy: delete
    retention.ms: '${t.retentionDays * DAY_MS}'
    min.insync.replicas: '${MIN_INSYNC_REPLICAS}'
`,
  );
  return `${HEADER}
# One KafkaTopic per event contract (libs/messaging CONTRACTS) and the dead-letter topic, for Strimzi's
# Topic Operator, which must watch this namespace (Kafka CR: entityOperator.topicOperator.watchedNamespace).
# The apps never create topics: a topic missing here is missing in Kafka.
${docs.join('---\n')}`;
}
