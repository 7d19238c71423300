/**
 * The production overlay's PostgreSQL example (docs/decisions/0028-kubernetes-operations.md): a
 * CloudNativePG Cluster with one login role per app that has a database (from the service registry),
 * continuous backup through the Barman Cloud plugin, a nightly base backup, and the NetworkPolicy its
 * pods need under the namespace's default deny. A managed PostgreSQL replaces all of it: drop this file
 * from the overlay and point each <APP>_DATABASE_URL at it.
 */
import { OWNED_SCHEMAS, SERVICES, type ServiceDefinition } from '@platform/registry';
import { PEERS, maxReplicas } from './k8s-operations';

const APPS: readonly ServiceDefinition[] = SERVICES;
const HEADER = '# Generated from libs/registry by scripts/gen-deploy.ts (npm run gen:deploy); do not edit.';
const CLUSTER = PEERS.postgresCluster;
const DATABASE = 'platform';
/** PostgreSQL role of an app: its name with underscores (a bare identifier in SQL). */
export const roleOf = (app: string) => app.replaceAll('-', '_');

// --- connections (decision 0028, "Connections") --------------------------------------------------------

/**
 * Each app's connection pool, `DB_POOL_MAX`: scripts/gen-deploy.ts writes it into the app's ConfigMap,
 * so the budget below is what runs whatever the code's default. The gateway holds only its rate-limit
 * leases (4, its own default); every other app 10 (libs/config's and the relay's default).
 */
export const dbPoolMax = (s: ServiceDefinition): number => (s.role === 'gateway' ? 4 : 10);
/** Sessions a replica holds outside its pool: the relay's LISTEN connection (apps/outbox-relay). */
const SESSIONS_OUTSIDE_POOL: Readonly<Record<string, number>> = { 'outbox-relay': 1 };
/** A rolling update adds one pod per Deployment above the autoscaler's count (`maxSurge: 1`). */
export const ROLLOUT_SURGE = 1;
/**
 * Above the apps: PostgreSQL's superuser_reserved_connections (3: CloudNativePG's instance manager and
 * a person's psql), the admin CLIs (`npm run admin`, 2 connections each) and a metrics exporter.
 */
export const CONNECTION_HEADROOM = 20;
/**
 * Lending in database-per-tenant mode (decision 0025; its defaults LENDING_TENANT_POOLS_MAX 20 and
 * LENDING_TENANT_POOL_SIZE 5) opens up to this many connections per replica to the tenant databases.
 * Not in the budget: the mode is shared by default and is switched by an overlay patch
 * (docs/runbooks/add-tenant-database.md), and tenant databases may live on other servers.
 */
export const LENDING_TENANT_CONNECTIONS_PER_REPLICA = 20 * 5;

export interface ConnectionBudget {
  apps: { name: string; pods: number; perPod: number; connections: number }[];
  /** max_connections: the apps at their most pods, plus the headroom, rounded up to ten. */
  maxConnections: number;
  /** What database-per-tenant adds when the tenant databases are on this cluster. */
  lendingTenants: number;
}

/**
 * The most connections the apps may open at once: every app with a database at its autoscaler's maximum
 * plus the rollout's surge pod, each with a full pool (and its sessions outside the pool).
 */
export function connectionBudget(services: readonly ServiceDefinition[] = APPS): ConnectionBudget {
  const apps = services
    .filter((s) => s.database)
    .map((s) => {
      const pods = maxReplicas(s) + ROLLOUT_SURGE;
      const perPod = dbPoolMax(s) + (SESSIONS_OUTSIDE_POOL[s.name] ?? 0);
      return { name: s.name, pods, perPod, connections: pods * perPod };
    });
  const sum = apps.reduce((n, a) => n + a.connections, 0);
  const lending = services.find((s) => s.name === 'lending' && s.database);
  return {
    apps,
    maxConnections: Math.ceil((sum + CONNECTION_HEADROOM) / 10) * 10,
    lendingTenants: lending
      ? (maxReplicas(lending) + ROLLOUT_SURGE) * LENDING_TENANT_CONNECTIONS_PER_REPLICA
      : 0,
  };
}

export function postgresCluster(): string {
  const apps = APPS.filter((s) => s.database);
  const roles = apps
    .map(
      (s) => `    - name: ${roleOf(s.name)}
      ensure: present
      login: true
      passwordSecret:
        name: ${CLUSTER}-${s.name}`,
    )
    .join('\n');
  const creates = apps.map((s) => `      - CREATE ROLE ${roleOf(s.name)} NOLOGIN`);
  const grants = apps
    .filter((s) => s.schema !== null)
    .map((s) => `      - GRANT CREATE ON DATABASE ${DATABASE} TO ${roleOf(s.name)}`);
  // Lending's tenant transactions switch to lending_tenant (decision 0025); its migration creates the role
  // and grants it to itself, which an app role without CREATEROLE may not: created here, with ADMIN.
  if (apps.some((s) => s.name === 'lending'))
    grants.push(
      '      - CREATE ROLE lending_tenant NOLOGIN NOBYPASSRLS',
      `      - GRANT lending_tenant TO ${roleOf('lending')} WITH ADMIN OPTION`,
    );
  const relay = roleOf('outbox-relay');
  const budget = connectionBudget();
  const budgetLines = budget.apps.map(
    (a) => `#   ${a.name}: ${a.pods} pods x ${a.perPod} = ${a.connections}`,
  );
  const relayGrants = OWNED_SCHEMAS.map(
    (schema) =>
      `#   GRANT USAGE ON SCHEMA ${schema} TO ${relay}; GRANT SELECT, UPDATE, DELETE ON ${schema}.outbox TO ${relay};`,
  );
  return `${HEADER}
# PostgreSQL on CloudNativePG (operator 1.26 or later, with the Barman Cloud plugin and cert-manager).
# One database \`${DATABASE}\`; each app logs in as its own role and owns its schema, which its migrations
# create at start. Each role's password is a kubernetes.io/basic-auth Secret \`${CLUSTER}-<app>\`
# (username = the role); each app's <APP>_DATABASE_URL in platform-secrets is then
#   postgres://<role>:<password>@${CLUSTER}-rw:5432/${DATABASE}
# The relay's role reads and marks the outbox tables only; once the apps have migrated (first release):
${relayGrants.join('\n')}
# max_connections (decision 0028, "Connections"): each app at its autoscaler's maximum plus the rollout's
# surge pod, each pod with a full pool (DB_POOL_MAX, in its ConfigMap; the relay's LISTEN session too),
# plus ${CONNECTION_HEADROOM} (superuser-reserved, admin CLIs, an exporter), rounded up:
${budgetLines.join('\n')}
# Raising an app's maxReplicas or DB_POOL_MAX raises this (npm run gen:deploy; an overlay that patches
# either must patch max_connections too: scripts/check-k8s-policy.mjs refuses a render that does not).
# Lending in database-per-tenant mode with its tenant databases on this cluster adds up to
# ${budget.lendingTenants} more (LENDING_TENANT_POOLS_MAX x LENDING_TENANT_POOL_SIZE per pod): raise it and the
# memory with it, lower LENDING_TENANT_POOLS_MAX, or give the tenant databases a cluster of their own.
apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata:
  name: ${CLUSTER}
spec:
  instances: 3
  imageName: ghcr.io/cloudnative-pg/postgresql:17.5
  primaryUpdateStrategy: unsupervised
  storage:
    size: 50Gi
  walStorage:
    size: 10Gi
  postgresql:
    parameters:
      max_connections: '${budget.maxConnections}'
      shared_buffers: 1GB
  affinity:
    enablePodAntiAffinity: true
    topologyKey: topology.kubernetes.io/zone
  resources:
    requests:
      cpu: '1'
      memory: 4Gi
    limits:
      memory: 4Gi
  bootstrap:
    initdb:
      database: ${DATABASE}
      owner: ${DATABASE}
      postInitApplicationSQL:
${[...creates, ...grants].join('\n')}
  managed:
    roles:
${roles}
  plugins:
    - name: barman-cloud.cloudnative-pg.io
      isWALArchiver: true
      parameters:
        barmanObjectName: ${CLUSTER}-backups
---
# Base backups and WAL in an S3-compatible bucket: point-in-time recovery within the retention
# (docs/runbooks/restore-from-backup.md). Credentials: Secret ${CLUSTER}-backup-s3.
apiVersion: barmancloud.cnpg.io/v1
kind: ObjectStore
metadata:
  name: ${CLUSTER}-backups
spec:
  retentionPolicy: 30d
  configuration:
    destinationPath: s3://platform-db-backups/
    s3Credentials:
      accessKeyId:
        name: ${CLUSTER}-backup-s3
        key: ACCESS_KEY_ID
      secretAccessKey:
        name: ${CLUSTER}-backup-s3
        key: ACCESS_SECRET_KEY
    wal:
      compression: gzip
    data:
      compression: gzip
---
# A base backup every night at 02:00 (the schedule has seconds first).
apiVersion: postgresql.cnpg.io/v1
kind: ScheduledBackup
metadata:
  name: ${CLUSTER}-nightly
spec:
  schedule: '0 0 2 * * *'
  backupOwnerReference: self
  method: plugin
  pluginConfiguration:
    name: barman-cloud.cloudnative-pg.io
  cluster:
    name: ${CLUSTER}
---
# The database pods under the namespace's default deny: the apps and the other instances on 5432, the
# operator's status port 8000; out, everywhere (the Kubernetes API, the other instances, the bucket).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${CLUSTER}
spec:
  podSelector:
    matchLabels:
      cnpg.io/cluster: ${CLUSTER}
  policyTypes: [Ingress, Egress]
  ingress:
    - from:
        - podSelector:
            matchLabels:
              app.kubernetes.io/part-of: platform
        - podSelector:
            matchLabels:
              cnpg.io/cluster: ${CLUSTER}
      ports:
        - port: 5432
          protocol: TCP
    - from:
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: cnpg-system
      ports:
        - port: 8000
          protocol: TCP
  egress:
    - {}
`;
}
