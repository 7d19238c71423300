/**
 * `npm run gen:deploy [-- --check | --list]`: the deployment files of every app in the service registry
 * (libs/registry), so a new service needs no hand edit here:
 *   docker/<app>/Dockerfile (+ .dockerignore)   from docker/Dockerfile.template
 *   docker/docker-compose.yml                   the app services, between its `generated` markers;
 *                                               PostgreSQL, Kafka and the shared anchors stay hand-written
 *   k8s/base/<app>/{configmap,deployment,service,autoscaler,disruption-budget,network-policy}.yaml
 *   k8s/base/shared/*.yaml                      namespace NetworkPolicies, Ingress, KafkaTopics
 *                                               (scripts/deploy/k8s-operations.ts, decision 0028),
 *                                               ServiceMonitor, PrometheusRule (k8s-monitoring.ts)
 *   k8s/base/kustomization.yaml
 *   k8s/overlays/dev/kustomization.yaml         the per-app images and secrets, between its markers
 *   k8s/overlays/production/kustomization.yaml  the images, the required secret keys and the Kafka cluster
 *                                               CA patch, between markers
 *   k8s/overlays/production/postgresql.yaml     the CloudNativePG example (scripts/deploy/k8s-production.ts)
 * YAML goes through the repository's prettier settings, so this check and `prettier --check` agree.
 * `--check` writes nothing and fails on drift, including files of an app that is no longer registered;
 * `--list` prints the registered apps (scripts/check-manifests.sh counts them).
 *
 * TypeScript run by ts-node rather than JS reading an exported JSON: the registry stays one `as const`
 * module (its names are a type), with no second, generated copy of it to keep in step.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as prettier from 'prettier';
import {
  GATEWAY,
  ROUTED_SERVICES,
  RUNTIME_NODE_OPTIONS,
  SERVICES,
  type ServiceDefinition,
} from '@platform/registry';
import {
  CONTAINER_PORT,
  CPU_REQUEST,
  MEMORY_LIMIT_MIB,
  PRESTOP_SLEEP_SECONDS,
  SHUTDOWN_HOOKS_SECONDS,
  autoscaler,
  disruptionBudget,
  ingress,
  kafkaClusterCaPatch,
  kafkaTopics,
  longestRequestSeconds,
  memoryRequestMiB,
  networkPolicy,
  sharedNetworkPolicies,
  terminationGraceSeconds,
} from './deploy/k8s-operations';
import { METRICS_PORT, prometheusRules, serviceMonitor } from './deploy/k8s-monitoring';
import { dbPoolMax, postgresCluster } from './deploy/k8s-production';

const ROOT = resolve(__dirname, '..');
const APPS: readonly ServiceDefinition[] = SERVICES;
const SOURCE = 'libs/registry by scripts/gen-deploy.ts (npm run gen:deploy)';
const HEADER = `# Generated from ${SOURCE}; do not edit.`;
/** The dev overlay's secret values; real environments get theirs from a secret store. */
const DEV_DATABASE_URL = 'postgres://platform:platform@postgres:5432/platform';
/**
 * Where the production overlay pulls images from, and the release it names: package.json's version, so a
 * release is a version bump plus this generator (docs/runbooks/deploy.md).
 */
const PRODUCTION_REGISTRY = 'registry.example.com';
const PRODUCTION_TAG = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const GENERATED_PER_APP: Record<string, string[]> = {
  docker: ['Dockerfile', 'Dockerfile.dockerignore'],
  'k8s/base': [
    'configmap.yaml',
    'deployment.yaml',
    'service.yaml',
    'autoscaler.yaml',
    'disruption-budget.yaml',
    'network-policy.yaml',
  ],
};
/** Namespace-wide objects of the base (not per app). */
const SHARED = [
  'network-policies.yaml',
  'ingress.yaml',
  'kafka-topics.yaml',
  'service-monitor.yaml',
  'prometheus-rules.yaml',
];

const out = (msg: string) => process.stdout.write(`${msg}\n`);
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const quote = (v: string) => `'${v.replaceAll("'", "''")}'`;
const databaseSecretKey = (app: string) => `${app.toUpperCase().replaceAll('-', '_')}_DATABASE_URL`;
const secretKey = (app: string, name: string) => {
  const prefix = `${app.toUpperCase().replaceAll('-', '_')}_`;
  return name.startsWith(prefix) ? name : `${prefix}${name}`;
};
/** A development-only value: long enough for the apps' checks, and never their built-in default. */
const devSecret = (app: string, name: string) =>
  `dev-only-${secretKey(app, name).toLowerCase()}-not-for-production`;

function dockerfiles(): [string, string][] {
  const template = read('docker/Dockerfile.template');
  const ignore = read('docker/.dockerignore.template');
  return APPS.flatMap((s): [string, string][] => [
    [
      `docker/${s.name}/Dockerfile`,
      template
        .replace('{{GENERATED}}', `Generated from docker/Dockerfile.template and ${SOURCE}; edit those.`)
        .replaceAll('{{APP}}', s.name)
        .replaceAll('{{HEALTH}}', s.health)
        .replaceAll('{{NODE_OPTIONS}}', RUNTIME_NODE_OPTIONS)
        // A named compose volume takes the owner of the image's directory: make it the app's user's.
        .replace(
          '{{VOLUMES}}',
          (s.volumes ?? [])
            .map((v) => `RUN mkdir -p ${v.mountPath} && chown node:node ${v.mountPath}\n`)
            .join(''),
        ),
    ],
    [`docker/${s.name}/Dockerfile.dockerignore`, ignore],
  ]);
}

function configData(s: ServiceDefinition): Record<string, string> {
  const data: Record<string, string> = {
    NODE_ENV: 'production',
    NODE_OPTIONS: RUNTIME_NODE_OPTIONS,
    PORT: `${CONTAINER_PORT}`,
    LOG_LEVEL: 'log',
    // After SIGTERM, requests in flight get the slowest route's idle budget before their connections are
    // cut; the shutdown hooks then fit the rest of terminationGracePeriodSeconds (decision 0028).
    HTTP_DRAIN_MS: `${longestRequestSeconds(s) * 1000}`,
  };
  // The brokers and credentials come from the platform-kafka Secret (deployment below).
  if (s.kafka) Object.assign(data, { KAFKA_CLIENT_ID: s.name });
  // Pinned here: the PostgreSQL cluster's max_connections is derived from it (k8s-production.ts).
  if (s.database) data.DB_POOL_MAX = `${dbPoolMax(s)}`;
  Object.assign(data, s.config ?? {});
  for (const v of s.volumes ?? []) data[v.setting] = v.mountPath;
  if (s.role === 'gateway') {
    for (const u of ROUTED_SERVICES) data[u.gateway.upstreamEnv] = `http://${u.name}`;
    // Whose X-Forwarded-For is believed: the pod networks, because the gateway's NetworkPolicy lets only
    // the ingress controller's pods connect (decision 0028); nginx puts the client's address there.
    data.GATEWAY_TRUSTED_PROXIES = '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';
    // Its /metrics on a port of its own: the ingress sends every path of its own port (k8s-monitoring.ts).
    data.METRICS_PORT = `${METRICS_PORT}`;
  }
  return data;
}

function configmap(s: ServiceDefinition): string {
  return `${HEADER}
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${s.name}-config
  labels:
    app.kubernetes.io/name: ${s.name}
data:
${Object.entries(configData(s))
  .map(([k, v]) => `  ${k}: ${quote(v)}`)
  .join('\n')}
`;
}

function deployment(s: ServiceDefinition): string {
  const database = s.database
    ? `
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: platform-secrets
                  key: ${databaseSecretKey(s.name)}`
    : '';
  const secrets = (s.secrets ?? [])
    .map(
      (name) => `
            - name: ${name}
              valueFrom:
                secretKeyRef:
                  name: platform-secrets
                  key: ${secretKey(s.name, name)}`,
    )
    .join('');
  // KAFKA_BROKERS, KAFKA_SSL and KAFKA_SASL_* (libs/config KafkaClientConfig) from one Secret.
  const kafka = s.kafka
    ? `
            - secretRef:
                name: platform-kafka`
    : '';
  // The root filesystem is read-only: /tmp is an emptyDir (os.tmpdir() of Node and its libraries, heap
  // snapshots and diagnostic reports), shared directories are claims.
  const volumes = s.volumes ?? [];
  const mounts = [
    { name: 'tmp', mountPath: '/tmp' },
    ...volumes.map((v) => ({ name: v.name, mountPath: v.mountPath })),
  ]
    .map(
      (v) => `
            - name: ${v.name}
              mountPath: ${v.mountPath}`,
    )
    .join('');
  const podVolumes = [
    `
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi`,
    ...volumes.map(
      (v) => `
        - name: ${v.name}
          persistentVolumeClaim:
            claimName: ${s.name}-${v.name}`,
    ),
  ].join('');
  // Shared by every replica (ReadWriteMany): a storage class such as NFS or CephFS provides it.
  const claims = volumes
    .map(
      (v) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${s.name}-${v.name}
  labels:
    app.kubernetes.io/name: ${s.name}
spec:
  accessModes: ['ReadWriteMany']
  resources:
    requests:
      storage: ${v.size}
`,
    )
    .join('');
  const probe = (path: string) => `httpGet:
              path: ${s.health}/${path}
              port: http`;
  // The gateway's readiness probe asks /health/live: its /health/ready aggregates every service, and
  // probing that would take every gateway replica out of rotation when one service is down.
  return `${HEADER}
# Replicas: the HorizontalPodAutoscaler's (autoscaler.yaml), so none here; an apply would reset them.
# Shutdown (decision 0028): terminationGracePeriodSeconds ${terminationGraceSeconds(s)} = preStop ${PRESTOP_SLEEP_SECONDS} (the endpoint leaves
# the load balancers) + ${longestRequestSeconds(s)} (requests in flight: the slowest route's idle budget, HTTP_DRAIN_MS) + ${SHUTDOWN_HOOKS_SECONDS} (shutdown hooks).
# Migrations run at start under the schema's advisory lock (decision 0028): the startup probe allows 5 min.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${s.name}
  labels:
    app.kubernetes.io/name: ${s.name}
    app.kubernetes.io/part-of: platform
spec:
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: ${s.name}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${s.name}
        app.kubernetes.io/part-of: platform
    spec:
      automountServiceAccountToken: false
      enableServiceLinks: false
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
        runAsGroup: 1000
        fsGroup: 1000
        seccompProfile:
          type: RuntimeDefault
      terminationGracePeriodSeconds: ${terminationGraceSeconds(s)}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: ${s.name}
          matchLabelKeys: [pod-template-hash]
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: ${s.name}
          matchLabelKeys: [pod-template-hash]
      containers:
        - name: ${s.name}
          image: platform/${s.name}
          imagePullPolicy: IfNotPresent
          ports:
            - name: http
              containerPort: ${CONTAINER_PORT}${
                s.role === 'gateway'
                  ? `
            - name: metrics
              containerPort: ${METRICS_PORT}`
                  : ''
              }
          envFrom:
            - configMapRef:
                name: ${s.name}-config${kafka}
          env:
            - name: INSTANCE_ID
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name${database}${secrets}
          lifecycle:
            preStop:
              exec:
                command: ['sleep', '${PRESTOP_SLEEP_SECONDS}']
          readinessProbe:
            ${probe(s.readinessProbe ?? 'ready')}
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          livenessProbe:
            ${probe('live')}
            periodSeconds: 15
            timeoutSeconds: 3
            failureThreshold: 4
          startupProbe:
            ${probe('live')}
            periodSeconds: 3
            failureThreshold: 100
          resources:
            requests:
              cpu: ${CPU_REQUEST}
              memory: ${memoryRequestMiB(s)}Mi
            limits:
              memory: ${MEMORY_LIMIT_MIB}Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            privileged: false
            capabilities:
              drop: ['ALL']
          volumeMounts:${mounts}
      volumes:${podVolumes}
${claims}`;
}

/**
 * `http` for traffic, `metrics` for Prometheus's ServiceMonitor (k8s-monitoring.ts): the gateway's own
 * metrics port, every other app's http port (their /metrics is not routed by the gateway).
 */
function k8sService(s: ServiceDefinition): string {
  return `${HEADER}
apiVersion: v1
kind: Service
metadata:
  name: ${s.name}
  labels:
    app.kubernetes.io/name: ${s.name}
    app.kubernetes.io/part-of: platform
spec:
  selector:
    app.kubernetes.io/name: ${s.name}
  ports:
    - name: http
      port: 80
      targetPort: http
    - name: metrics
      port: ${METRICS_PORT}
      targetPort: ${s.role === 'gateway' ? 'metrics' : 'http'}
`;
}

function kustomization(): string {
  return `${HEADER}
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
# Per app: ConfigMap, Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicy;
# shared: the namespace's NetworkPolicies, the gateway's Ingress, the KafkaTopics (decision 0028), the
# ServiceMonitor and the PrometheusRule (docs/runbooks/dashboards.md).
# Secrets are referenced, never committed: \`platform-secrets\` with one <APP>_DATABASE_URL per app
# that has a database (each its own role) and the <APP>_<NAME> keys the registry lists under
# \`secrets\`; \`platform-kafka\` with KAFKA_BROKERS, KAFKA_SSL and KAFKA_SASL_* (the overlays).
labels:
  - pairs:
      app.kubernetes.io/managed-by: kustomize
resources:
${APPS.flatMap((s) => GENERATED_PER_APP['k8s/base'].map((f) => `  - ${s.name}/${f}`)).join('\n')}
${SHARED.map((f) => `  - shared/${f}`).join('\n')}
`;
}

function k8sFiles(): [string, string][] {
  return [
    ...APPS.flatMap((s): [string, string][] => [
      [`k8s/base/${s.name}/configmap.yaml`, configmap(s)],
      [`k8s/base/${s.name}/deployment.yaml`, deployment(s)],
      [`k8s/base/${s.name}/service.yaml`, k8sService(s)],
      [`k8s/base/${s.name}/autoscaler.yaml`, autoscaler(s)],
      [`k8s/base/${s.name}/disruption-budget.yaml`, disruptionBudget(s)],
      [`k8s/base/${s.name}/network-policy.yaml`, networkPolicy(s)],
    ]),
    ['k8s/base/shared/network-policies.yaml', sharedNetworkPolicies()],
    ['k8s/base/shared/ingress.yaml', ingress()],
    ['k8s/base/shared/kafka-topics.yaml', kafkaTopics()],
    ['k8s/base/shared/service-monitor.yaml', serviceMonitor()],
    ['k8s/base/shared/prometheus-rules.yaml', prometheusRules()],
    ['k8s/base/kustomization.yaml', kustomization()],
    ['k8s/overlays/production/postgresql.yaml', postgresCluster()],
  ];
}

function composeServices(): string[] {
  return APPS.flatMap((s) => {
    const lines = [
      `${s.name}:`,
      '  <<: *service',
      `  build: { context: .., dockerfile: docker/${s.name}/Dockerfile }`,
    ];
    if (s.role === 'gateway') {
      // A map, not a list: a list would only wait for the containers to start. It replaces the anchor's
      // depends_on, so PostgreSQL and Kafka are named again; the apps' health is their image's HEALTHCHECK.
      lines.push('  depends_on:');
      for (const dep of [
        ...(s.database ? ['postgres'] : []),
        ...(s.kafka ? ['kafka'] : []),
        ...ROUTED_SERVICES.map((u) => u.name),
      ])
        lines.push(`    ${dep}: { condition: service_healthy }`);
      const anchors = ['*env', ...(s.database ? ['*database-env'] : []), ...(s.kafka ? ['*kafka-env'] : [])];
      lines.push('  environment:', `    <<: [${anchors.join(', ')}]`);
      if (s.kafka) lines.push(`    KAFKA_CLIENT_ID: ${s.name}`);
      for (const u of ROUTED_SERVICES)
        lines.push(`    ${u.gateway.upstreamEnv}: http://${u.name}:${CONTAINER_PORT}`);
      lines.push('  ports:', `    - '${GATEWAY.port}:${CONTAINER_PORT}'`);
    } else {
      const anchors = ['*env', ...(s.database ? ['*database-env'] : []), ...(s.kafka ? ['*kafka-env'] : [])];
      const secrets = (s.secrets ?? []).map((n) => `, ${n}: ${devSecret(s.name, n)}`).join('');
      const config = Object.entries({
        ...(s.config ?? {}),
        ...Object.fromEntries((s.volumes ?? []).map((v) => [v.setting, v.mountPath])),
      })
        .map(([k, v]) => `, ${k}: ${quote(v)}`)
        .join('');
      const own = (s.kafka ? `, KAFKA_CLIENT_ID: ${s.name}` : '') + secrets + config;
      lines.push(`  environment: { <<: [${anchors.join(', ')}]${own} }`);
      if (s.volumes?.length)
        lines.push(`  volumes: [${s.volumes.map((v) => `'${s.name}-${v.name}:${v.mountPath}'`).join(', ')}]`);
    }
    return [...lines, ''];
  });
}

function overlayImages(registry: string, tag: string): string[] {
  return APPS.flatMap((s) => [
    `- name: platform/${s.name}`,
    `  newName: ${registry}/platform/${s.name}`,
    `  newTag: '${tag}'`,
  ]);
}

/** The keys of `platform-secrets` the Deployments read, for the production overlay's checklist. */
function requiredSecretKeys(): string[] {
  return [
    ...APPS.filter((s) => s.database).map((s) => `# - ${databaseSecretKey(s.name)}`),
    ...APPS.flatMap((s) => (s.secrets ?? []).map((n) => `# - ${secretKey(s.name, n)}`)),
  ];
}

function overlaySecrets(): string[] {
  return [
    ...APPS.filter((s) => s.database).map((s) => `- ${databaseSecretKey(s.name)}=${DEV_DATABASE_URL}`),
    ...APPS.flatMap((s) => (s.secrets ?? []).map((n) => `- ${secretKey(s.name, n)}=${devSecret(s.name, n)}`)),
  ];
}

/** Replaces the lines between `# >>> generated: <region>` and `# <<< generated: <region>`. */
function fillRegion(path: string, text: string, region: string, lines: string[]): string {
  const all = text.split('\n');
  const start = all.findIndex((l) => l.trim() === `# >>> generated: ${region}`);
  const end = all.findIndex((l, i) => i > start && l.trim() === `# <<< generated: ${region}`);
  if (start < 0 || end < 0)
    throw new Error(`${path}: the markers of the generated region "${region}" are missing`);
  const indent = all[start].slice(0, all[start].indexOf('#'));
  return [...all.slice(0, start + 1), ...lines.map((l) => (l ? `${indent}${l}` : l)), ...all.slice(end)].join(
    '\n',
  );
}

function regionFiles(): [string, string][] {
  const compose = 'docker/docker-compose.yml';
  const overlay = 'k8s/overlays/dev/kustomization.yaml';
  let overlayText = fillRegion(overlay, read(overlay), 'images', overlayImages('registry.local', 'dev'));
  overlayText = fillRegion(overlay, overlayText, 'database secrets', overlaySecrets());
  const production = 'k8s/overlays/production/kustomization.yaml';
  let productionText = fillRegion(
    production,
    read(production),
    'images',
    overlayImages(PRODUCTION_REGISTRY, PRODUCTION_TAG),
  );
  productionText = fillRegion(production, productionText, 'required secrets', requiredSecretKeys());
  productionText = fillRegion(production, productionText, 'kafka cluster CA', kafkaClusterCaPatch(APPS));
  return [
    [
      compose,
      fillRegion(
        compose,
        fillRegion(compose, read(compose), 'app services', composeServices()),
        'app volumes',
        APPS.flatMap((s) => (s.volumes ?? []).map((v) => `${s.name}-${v.name}:`)),
      ),
    ],
    [overlay, overlayText],
    [production, productionText],
  ];
}

async function formatted(path: string, text: string): Promise<string> {
  if (!/\.ya?ml$/.test(path)) return text;
  const file = join(ROOT, path);
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}

/** Generated files in a folder of an app that is no longer in the registry. */
function orphans(): string[] {
  const registered = new Set(APPS.map((s) => s.name));
  return Object.entries(GENERATED_PER_APP).flatMap(([parent, files]) =>
    readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !registered.has(d.name))
      .flatMap((d) => files.map((f) => `${parent}/${d.name}/${f}`))
      .filter((f) => existsSync(join(ROOT, f))),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    for (const s of APPS) out(s.name);
    return;
  }
  const check = args.includes('--check');
  const wanted = [...dockerfiles(), ...k8sFiles(), ...regionFiles()];
  let drift = 0;
  for (const [path, text] of wanted) {
    const content = await formatted(path, text);
    const file = join(ROOT, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === content) continue;
    if (check) {
      process.stderr.write(`${path} is out of date with libs/registry: run npm run gen:deploy\n`);
      drift++;
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      out(`wrote ${path}`);
    }
  }
  for (const path of orphans()) {
    if (check) {
      process.stderr.write(`${path} belongs to no app in libs/registry: run npm run gen:deploy\n`);
      drift++;
    } else {
      unlinkSync(join(ROOT, path));
      out(`removed ${path}`);
      const folder = dirname(join(ROOT, path));
      if (readdirSync(folder).length === 0) rmdirSync(folder);
    }
  }
  if (check && drift) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
