/**
 * `node scripts/check-k8s-policy.mjs <rendered.yaml>...`: the rules every rendered workload must meet
 * (docs/decisions/0028-kubernetes-operations.md), checked offline on `kubectl kustomize` output. Exits 1
 * listing every violation. scripts/check-manifests.sh runs it on both overlays and plants violations to
 * prove each rule bites.
 *
 * Kinds: only those the generator writes (KINDS below, by API group) are accepted; any other is refused
 * (a bare Pod, a ReplicaSet, a StatefulSet, a DaemonSet, a Job or CronJob, RBAC, a webhook, an unknown
 * custom resource...), and every object that carries a pod (WORKLOADS) is checked as well, so a
 * refusal lists all that is wrong with it. Job and CronJob become acceptable by adding them to KINDS
 * (nothing generates one today, decision 0028 "Migrations"); they are checked the same way, without the
 * probes.
 *
 * Per workload (Pod, Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob)
 * and container (init and ephemeral containers included):
 *   - readiness and liveness probes (long-running workloads' containers);
 *   - CPU and memory requests and a memory limit (no CPU limit is required: throttling a Node event loop
 *     only adds latency; the scheduler and the autoscaler work from requests);
 *   - not root: runAsNonRoot true and no runAsUser 0; no privilege escalation, not privileged, a
 *     read-only root filesystem, every capability dropped and none added, the RuntimeDefault (or a
 *     Localhost) seccomp profile; no host port;
 *   - a preStop pause shorter than the grace period.
 * Per pod: no host network, PID or IPC namespace, no hostPath volume.
 * Across objects: every Deployment has an autoscaler that owns its replicas (so no `replicas` of its
 * own) and a PodDisruptionBudget; the namespace denies traffic by default; only the gateway's Service is
 * behind an Ingress, and no Service is a NodePort or LoadBalancer or has `externalIPs`; a CloudNativePG
 * Cluster's max_connections covers every Deployment's pool (DB_POOL_MAX) at its autoscaler's maximum plus
 * the rollout's surge pods.
 */
import { fileURLToPath } from 'node:url';
import { describe, readObjects } from './validate-k8s.mjs';

/** Kinds that carry a pod: each is checked against the container and pod rules, whatever its kind. */
const WORKLOADS = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
]);
const LONG_RUNNING = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
]);
/**
 * The kinds scripts/gen-deploy.ts and the overlays write, as `<API group>/<kind>` (the core group is
 * empty); anything else is refused until it is reviewed and added here (with its rules above, if it
 * carries a pod). Deployment is the only workload.
 */
const KINDS = new Set([
  '/Namespace',
  '/ConfigMap',
  '/Secret',
  '/Service',
  '/PersistentVolumeClaim',
  'apps/Deployment',
  'autoscaling/HorizontalPodAutoscaler',
  'policy/PodDisruptionBudget',
  'networking.k8s.io/NetworkPolicy',
  'networking.k8s.io/Ingress',
  'kafka.strimzi.io/KafkaTopic',
  'monitoring.coreos.com/ServiceMonitor',
  'monitoring.coreos.com/PrometheusRule',
  // The production overlay's CloudNativePG example (the operator runs its pods).
  'postgresql.cnpg.io/Cluster',
  'postgresql.cnpg.io/ScheduledBackup',
  'barmancloud.cnpg.io/ObjectStore',
]);
const groupKind = (o) => `${o.apiVersion?.includes('/') ? o.apiVersion.split('/')[0] : ''}/${o.kind}`;
/** The one app the Ingress may expose (libs/registry's gateway). */
const EXPOSED_SERVICE = 'gateway';

function podSpecOf(o) {
  if (o.kind === 'Pod') return o.spec;
  if (o.kind === 'CronJob') return o.spec?.jobTemplate?.spec?.template?.spec;
  return o.spec?.template?.spec;
}

const EXPRESSIONS = {
  In: (e, l) => e.key in l && e.values.includes(l[e.key]),
  NotIn: (e, l) => !(e.key in l) || !e.values.includes(l[e.key]),
  Exists: (e, l) => e.key in l,
  DoesNotExist: (e, l) => !(e.key in l),
};
/** A label selector matching a pod's labels (an empty selector matches every pod). */
const matches = (selector, labels = {}) =>
  !!selector &&
  Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
  (selector.matchExpressions ?? []).every((e) => EXPRESSIONS[e.operator]?.(e, labels) ?? false);

function containerProblems(kind, pod, c, init) {
  const p = [];
  const name = `container ${c.name}`;
  if (LONG_RUNNING.has(kind) && !init) {
    if (!c.readinessProbe) p.push(`${name} has no readinessProbe`);
    if (!c.livenessProbe) p.push(`${name} has no livenessProbe`);
  }
  const r = c.resources ?? {};
  if (!r.limits?.memory) p.push(`${name} has no memory limit`);
  if (!r.requests?.memory || !r.requests?.cpu) p.push(`${name} has no cpu and memory requests`);
  const podSc = pod.securityContext ?? {};
  const sc = c.securityContext ?? {};
  const runAsNonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
  const runAsUser = sc.runAsUser ?? podSc.runAsUser;
  if (runAsNonRoot !== true) p.push(`${name} may run as root (runAsNonRoot is not true)`);
  if (runAsUser === 0) p.push(`${name} runs as root (runAsUser 0)`);
  if (sc.allowPrivilegeEscalation !== false) p.push(`${name} allows privilege escalation`);
  if (sc.privileged === true) p.push(`${name} is privileged`);
  if (sc.readOnlyRootFilesystem !== true) p.push(`${name} has a writable root filesystem`);
  if (!(sc.capabilities?.drop ?? []).includes('ALL')) p.push(`${name} does not drop ALL capabilities`);
  if (sc.capabilities?.add?.length) p.push(`${name} adds capabilities (${sc.capabilities.add.join(', ')})`);
  const hostPorts = (c.ports ?? []).filter((port) => port.hostPort).map((port) => port.hostPort);
  if (hostPorts.length) p.push(`${name} binds host port ${hostPorts.join(', ')}`);
  const seccomp = (sc.seccompProfile ?? podSc.seccompProfile)?.type;
  if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
    p.push(`${name} has no RuntimeDefault seccomp profile`);
  const sleep =
    c.lifecycle?.preStop?.exec?.command?.join(' ').match(/^sleep (\d+)$/)?.[1] ??
    c.lifecycle?.preStop?.sleep?.seconds;
  if (sleep !== undefined && Number(sleep) >= (pod.terminationGracePeriodSeconds ?? 30))
    p.push(`${name}: its preStop pause (${sleep} s) leaves no time of the grace period for the shutdown`);
  return p;
}

/** PostgreSQL's superuser_reserved_connections default: part of max_connections, not for the apps. */
const SUPERUSER_RESERVED = 3;

/**
 * The pool size of a pod that connects to PostgreSQL (`DATABASE_URL` in a container's env): its
 * DB_POOL_MAX, from the env or a ConfigMap it reads (undefined: not set); null when no container
 * connects.
 */
function poolOf(pod, configMaps) {
  let pool = null;
  for (const c of pod?.containers ?? []) {
    const env = c.env ?? [];
    if (!env.some((e) => e.name === 'DATABASE_URL')) continue;
    // `env` wins over `envFrom`; of several `envFrom` sources, the last.
    const fromMaps = (c.envFrom ?? [])
      .map((f) => f.configMapRef && configMaps.get(f.configMapRef.name)?.DB_POOL_MAX)
      .filter((v) => v !== undefined && v !== null);
    const value = env.find((e) => e.name === 'DB_POOL_MAX')?.value ?? fromMaps.at(-1);
    if (value === undefined) return undefined;
    pool = (pool ?? 0) + Number(value);
  }
  return pool;
}

/** The pods a rolling update adds above the replica count (`maxSurge`, 25% by default, rounded up). */
function surgeOf(d, replicas) {
  if (d.spec?.strategy?.type === 'Recreate') return 0;
  const surge = d.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%';
  return typeof surge === 'number' ? surge : Math.ceil((replicas * parseInt(surge, 10)) / 100);
}

export function policyProblems(values) {
  const problems = [];
  const add = (o, what) => problems.push(`${describe(o)}: ${what}`);
  const of = (kind) => values.filter((v) => v?.kind === kind);

  for (const o of values)
    if (o?.kind && !KINDS.has(groupKind(o)))
      add(
        o,
        `is a ${o.kind} (${o.apiVersion}): the platform generates none (its one workload kind is the ` +
          'Deployment); refused until reviewed and added to KINDS in scripts/check-k8s-policy.mjs',
      );

  for (const o of values.filter((v) => WORKLOADS.has(v?.kind))) {
    const pod = podSpecOf(o);
    if (!pod) {
      add(o, 'no pod template');
      continue;
    }
    for (const ns of ['hostNetwork', 'hostPID', 'hostIPC'])
      if (pod[ns]) add(o, `shares a host namespace (${ns})`);
    for (const v of pod.volumes ?? [])
      if (v.hostPath) add(o, `mounts the host's ${v.hostPath.path} (hostPath volume ${v.name})`);
    for (const c of pod.initContainers ?? [])
      for (const p of containerProblems(o.kind, pod, c, true)) add(o, p);
    for (const c of pod.ephemeralContainers ?? [])
      for (const p of containerProblems(o.kind, pod, c, true)) add(o, p);
    for (const c of pod.containers ?? []) for (const p of containerProblems(o.kind, pod, c, false)) add(o, p);
  }

  const autoscalers = of('HorizontalPodAutoscaler');
  const budgets = of('PodDisruptionBudget');
  for (const d of of('Deployment')) {
    const labels = d.spec?.template?.metadata?.labels;
    const hpa = autoscalers.find(
      (h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === d.metadata?.name,
    );
    if (!hpa) add(d, 'no HorizontalPodAutoscaler');
    else if (d.spec?.replicas !== undefined)
      add(d, 'sets replicas although an autoscaler owns them (every apply would reset them)');
    if (!budgets.some((b) => matches(b.spec?.selector, labels))) add(d, 'no PodDisruptionBudget');
  }

  const policies = of('NetworkPolicy');
  const denyAll = policies.some(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((t) => (p.spec?.policyTypes ?? []).includes(t)) &&
      !p.spec?.ingress?.length &&
      !p.spec?.egress?.length,
  );
  if (values.some((v) => WORKLOADS.has(v?.kind)) && !denyAll)
    problems.push('no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)');

  for (const i of of('Ingress')) {
    const backends = [
      i.spec?.defaultBackend,
      ...(i.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
    ].filter(Boolean);
    for (const b of backends)
      if (b.service?.name !== EXPOSED_SERVICE)
        add(i, `exposes ${b.service?.name ?? 'a resource'}, not the gateway`);
  }
  const configMaps = new Map(of('ConfigMap').map((c) => [c.metadata?.name, c.data ?? {}]));
  for (const cluster of of('Cluster').filter((c) => groupKind(c) === 'postgresql.cnpg.io/Cluster')) {
    const max = Number(cluster.spec?.postgresql?.parameters?.max_connections ?? 100);
    const apps = [];
    for (const d of of('Deployment')) {
      const pool = poolOf(podSpecOf(d), configMaps);
      if (pool === null) continue;
      if (pool === undefined) {
        add(
          d,
          `reads a DATABASE_URL without DB_POOL_MAX: its connections to ${describe(cluster)} are not known`,
        );
        continue;
      }
      const hpa = autoscalers.find(
        (h) =>
          h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === d.metadata?.name,
      );
      const replicas = hpa?.spec?.maxReplicas ?? d.spec?.replicas ?? 1;
      const pods = replicas + surgeOf(d, replicas);
      apps.push({ name: d.metadata?.name, pods, pool });
    }
    const need = apps.reduce((n, a) => n + a.pods * a.pool, 0) + SUPERUSER_RESERVED;
    if (need > max)
      add(
        cluster,
        `max_connections ${max} is below the ${need} connections the apps may open at their most pods ` +
          `(${apps.map((a) => `${a.name} ${a.pods} x ${a.pool}`).join(', ')}, and ${SUPERUSER_RESERVED} reserved for superusers)`,
      );
  }

  for (const s of of('Service')) {
    if (s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer')
      add(s, `is a ${s.spec.type}: only the Ingress to the gateway reaches in from outside`);
    if (s.spec?.externalIPs?.length)
      add(
        s,
        `has externalIPs (${s.spec.externalIPs.join(', ')}): only the Ingress to the gateway reaches in from outside`,
      );
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length) {
    process.stderr.write('usage: node scripts/check-k8s-policy.mjs <rendered.yaml>...\n');
    process.exit(2);
  }
  const { objects, problems: read } = readObjects(files);
  const problems = [...read, ...policyProblems(objects.map((o) => o.value))];
  if (problems.length) {
    process.stderr.write(`${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.stderr.write(`policy check: ${problems.length} violation(s) in ${files.join(', ')}\n`);
    process.exit(1);
  }
  const workloads = objects.filter((o) => WORKLOADS.has(o.value?.kind)).length;
  process.stdout.write(`policy check: ${workloads} workloads of ${files.join(', ')} meet every rule\n`);
}
