export { KafkaMockCluster, KafkaApiKey, KafkaErrorCode } from './kafka-mock-cluster';
export {
  startEmbeddedPostgres,
  createDatabaseIfMissing,
  adminUrl,
  freePort,
  type EmbeddedPostgresOptions,
  type RunningPostgres,
} from './embedded-postgres';
export {
  launchSystem,
  runAdmin,
  APPS,
  DEFAULT_PORTS,
  type AppName,
  type LaunchOptions,
  type RunningSystem,
  type RunningApp,
} from './system';
export { freshDatabase, type TestDatabase } from './fresh-database';
