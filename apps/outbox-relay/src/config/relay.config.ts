import { IsInt, Matches, Min } from 'class-validator';
import { KafkaClientConfig, Sensitive } from '@platform/config';
import { OWNED_SCHEMAS, service } from '@platform/registry';

export class RelayConfig extends KafkaClientConfig {
  override PORT = service('outbox-relay').port;
  override KAFKA_CLIENT_ID = 'outbox-relay';
  /** A role that may only read and update the outbox tables of the listed schemas. */
  @Sensitive()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/platform';
  /** Schemas whose `outbox` table this relay drains: by default every schema in the service registry. */
  @Matches(/^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*$/) RELAY_SCHEMAS = OWNED_SCHEMAS.join(',');
  /**
   * Events per claim and per produce request (split further by size under 1 MB). Larger batches spread
   * the claim's and the mark's statements over more events; the relay claims the next batch while this
   * one is on its way.
   */
  @IsInt() @Min(1) RELAY_BATCH_SIZE = 1000;
  @IsInt() @Min(1000) RELAY_LEASE_MS = 30000;
  @IsInt() @Min(1) RELAY_MAX_FAILURES = 5;
  @IsInt() @Min(1) RELAY_BACKOFF_BASE_MS = 500;
  @IsInt() @Min(1) RELAY_BACKOFF_MAX_MS = 60000;
  /** Fallback poll when no NOTIFY arrives (another database, a lost LISTEN connection). */
  @IsInt() @Min(10) RELAY_POLL_INTERVAL_MS = 1000;
  /**
   * After a NOTIFY, wait this long before the cycle. 0: at once; commits that arrive during a cycle are
   * published together by the next one anyway.
   */
  @IsInt() @Min(0) RELAY_WAKE_DELAY_MS = 0;
  @IsInt() @Min(1) RELAY_RETENTION_HOURS = 72;
  /** Each schema's loop uses up to two connections at once (a claim and a mark), plus lag queries. */
  @IsInt() @Min(1) DB_POOL_MAX = 10;
}
