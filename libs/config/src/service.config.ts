import { IsEmpty, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { Sensitive } from './load-config';

/** Fields every HTTP app has. Each app's config class extends one of these and adds its own. */
export class HttpAppConfig {
  @IsIn(['development', 'test', 'production']) NODE_ENV = 'development';
  @IsString() HOST = '0.0.0.0';
  @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']) LOG_LEVEL = 'log';
  /**
   * `json`: one JSON object per line (for the cluster's log collector); `text`: Nest's readable lines.
   * Unset: json in production, text otherwise (libs/observability logFormat).
   */
  @IsIn(['', 'json', 'text']) LOG_FORMAT = '';
  /** Pod name on Kubernetes; identifies the replica in leases and logs. */
  @IsString() INSTANCE_ID = `${process.pid}`;
  /**
   * After SIGTERM, how long requests in flight may run before the connections still open are cut
   * (libs/envelope http-drain). The Deployments set the app's slowest route's idle budget, so that this
   * plus the shutdown hooks fit terminationGracePeriodSeconds (decision 0028).
   */
  @IsInt() @Min(1000) @Max(600_000) HTTP_DRAIN_MS = 30000;
}

/** Kafka client settings; `KAFKA_BROKERS` alone is enough for the embedded mock and a plain cluster. */
export class KafkaClientConfig extends HttpAppConfig {
  @Matches(/^[^,\s]+(,[^,\s]+)*$/, { message: 'KAFKA_BROKERS must be host:port[,host:port...]' })
  KAFKA_BROKERS = '127.0.0.1:9092';
  @IsString() KAFKA_CLIENT_ID = 'platform';
  @IsIn(['true', 'false']) KAFKA_SSL = 'false';
  /**
   * PEM file of the CA(s) that signed the brokers' certificates (Strimzi: the `<cluster>-cluster-ca-cert`
   * Secret's `ca.crt`), instead of Node's public roots. Only with KAFKA_SSL=true (libs/kafka).
   */
  @ValidateIf((c: KafkaClientConfig) => c.KAFKA_SSL !== 'true')
  @IsEmpty({ message: 'KAFKA_SSL_CA_FILE needs KAFKA_SSL=true' })
  KAFKA_SSL_CA_FILE = '';
  /** Client certificate and key PEM files for mutual TLS (a Strimzi KafkaUser with `tls`): both or neither. */
  @ValidateIf((c: KafkaClientConfig) => c.KAFKA_SSL !== 'true' || !c.KAFKA_SSL_KEY_FILE)
  @IsEmpty({ message: 'KAFKA_SSL_CERT_FILE needs KAFKA_SSL=true and KAFKA_SSL_KEY_FILE' })
  KAFKA_SSL_CERT_FILE = '';
  @ValidateIf((c: KafkaClientConfig) => c.KAFKA_SSL !== 'true' || !c.KAFKA_SSL_CERT_FILE)
  @IsEmpty({ message: 'KAFKA_SSL_KEY_FILE needs KAFKA_SSL=true and KAFKA_SSL_CERT_FILE' })
  KAFKA_SSL_KEY_FILE = '';
  @IsOptional() @IsIn(['', 'plain', 'scram-sha-256', 'scram-sha-512']) KAFKA_SASL_MECHANISM = '';
  @IsOptional() @IsString() KAFKA_SASL_USERNAME = '';
  @Sensitive() @IsOptional() @IsString() KAFKA_SASL_PASSWORD = '';
  /** How long a fetch waits for data; 100 ms keeps latency low on small topics. */
  @IsInt() @Min(10) KAFKA_CONSUMER_MAX_WAIT_MS = 100;
  @IsInt() @Min(1000) KAFKA_SESSION_TIMEOUT_MS = 10000;
  /**
   * How often the app publishes `platform.service.health-reported.v1` even when nothing changed
   * (libs/health HealthReporter); 0 turns reporting off. public-status counts a service as down after
   * HEALTH_SILENCE_INTERVALS of these without a report, so keep it equal across the platform.
   */
  @IsInt() @Min(0) @Max(3_600_000) HEALTH_HEARTBEAT_MS = 15000;
  /** How often readiness is evaluated between heartbeats; a change is published at once. */
  @IsInt() @Min(100) @Max(3_600_000) HEALTH_CHECK_MS = 5000;
}

/** An app that owns a schema in PostgreSQL and talks to Kafka. */
export class DataServiceConfig extends KafkaClientConfig {
  @Sensitive()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/platform';
  /**
   * Removed: each service owns a fixed schema, declared in the service registry (decision 0009). Kept
   * only to fail at boot when a deployment still sets it, instead of silently ignoring it.
   */
  @IsEmpty({
    message:
      'DB_SCHEMA is no longer a setting: each service owns a fixed schema (docs/decisions/0009); use another database instead',
  })
  DB_SCHEMA = '';
  @IsInt() @Min(1) @Max(200) DB_POOL_MAX = 10;
  /**
   * How long an API key lookup is reused before asking the database again (0: every request asks).
   * A key revoked elsewhere stops working within this bound; at most 5 s.
   */
  @IsInt() @Min(0) @Max(5000) API_KEY_CACHE_TTL_MS = 2000;
  @IsInt() @Min(1) API_KEY_CACHE_MAX_ENTRIES = 10000;
  /**
   * Live keys (neither revoked nor past their end) an owner may hold; issuing or reissuing one more is
   * refused (lending: 409 API_KEY_LIMIT_REACHED). Holds under concurrency (libs/persistence
   * withinCountLimit).
   */
  @IsInt() @Min(1) @Max(10_000) API_KEYS_MAX_LIVE_PER_OWNER = 100;
}
