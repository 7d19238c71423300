/**
 * `node scripts/check-k8s-policy.mjs <rendered.yaml>...`: the rules every rendered workload must meet
 * (docs/decisions/0028-kubernetes-operations.md), checked offline on `kubectl kustomize` output. Exits 1
 * listing every violation. scripts/check-manifests.sh runs it on both overlays and plants violations to
 * prove each rule bites.
 *
 * Per workload (Deployment, StatefulSet, DaemonSet, Job, CronJob) and container:
 *   - readiness and liveness probes (long-running workloads' containers);
 *   - CPU and memory requests and a memory limit (no CPU limit is required: throttling a Node event loop
 *     only adds latency; the scheduler and the autoscaler work from requests);
 *   - not root: runAsNonRoot true and no runAsUser 0; no privilege escalation, not privileged, a
 *     read-only root filesystem, every capability dropped, the RuntimeDefault (or a Localhost) seccomp
 *     profile; no host network, PID or IPC namespace;
 *   - a preStop pause shorter than the grace period.
 * Across objects: every Deployment has an autoscaler that owns its replicas (so no `replicas` of its
 * own) and a PodDisruptionBudget; the namespace denies traffic by default; only the gateway's Service is
 * behind an Ingress, and no Service is a NodePort or LoadBalancer.
 */
import { fileURLToPath } from 'node:url';
import { describe, readObjects } from './validate-k8s.mjs';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);
const LONG_RUNNING = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);
/** The one app the Ingress may expose (libs/registry's gateway). */
const EXPOSED_SERVICE = 'gateway';

function podSpecOf(o) {
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

export function policyProblems(values) {
  const problems = [];
  const add = (o, what) => problems.push(`${describe(o)}: ${what}`);
  const of = (kind) => values.filter((v) => v?.kind === kind);

  for (const o of values.filter((v) => WORKLOADS.has(v?.kind))) {
    const pod = podSpecOf(o);
    if (!pod) {
      add(o, 'no pod template');
      continue;
    }
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) add(o, 'shares a host namespace');
    for (const c of pod.initContainers ?? [])
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
  for (const s of of('Service'))
    if (s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer')
      add(s, `is a ${s.spec.type}: only the Ingress to the gateway reaches in from outside`);
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
