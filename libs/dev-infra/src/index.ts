export { KafkaMockCluster, KafkaApiKey, KafkaErrorCode } from './kafka-mock-cluster';
export {
  startEmbeddedPostgres,
  createDatabaseIfMissing,
  adminUrl,
  freePort,
  type EmbeddedPostgresOptions,
  type RunningPostgres,
} from './embedded-postgres';
