/**
 * The production overlay's PostgreSQL example (docs/decisions/0028-kubernetes-operations.md): a
 * CloudNativePG Cluster with one login role per app that has a database (from the service registry),
 * continuous backup through the Barman Cloud plugin, a nightly base backup, and the NetworkPolicy its
 * pods need under the namespace's default deny. A managed PostgreSQL replaces all of it: drop this file
 * from the overlay and point each <APP>_DATABASE_URL at it.
 */
import { OWNED_SCHEMAS, SERVICES, type ServiceDefinition } from '@platform/registry';
import { PEERS } from './k8s-operations';

const APPS: readonly ServiceDefinition[] = SERVICES;
const HEADER = '# Generated from libs/registry by scripts/gen-deploy.ts (npm run gen:deploy); do not edit.';
const CLUSTER = PEERS.postgresCluster;
const DATABASE = 'platform';
/** PostgreSQL role of an app: its name with underscores (a bare identifier in SQL). */
export const roleOf = (app: string) => app.replaceAll('-', '_');

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
      max_connections: '300'
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
