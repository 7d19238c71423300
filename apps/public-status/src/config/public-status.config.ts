import { IsInt, Max, Min } from 'class-validator';
import { DataServiceConfig } from '@platform/config';
import { service } from '@platform/registry';

export class PublicStatusConfig extends DataServiceConfig {
  override PORT = service('public-status').port;
  override KAFKA_CLIENT_ID = service('public-status').name;
  /**
   * A service none of whose instances reported ready for this many heartbeats (HEALTH_HEARTBEAT_MS,
   * the platform-wide setting) counts as down (apps/public-status/src/health-events).
   */
  @IsInt() @Min(1) @Max(100) HEALTH_SILENCE_INTERVALS = 3;
  /** How often a replica looks for silent services; any replica may, the database keeps it to one flip. */
  @IsInt() @Min(100) @Max(3_600_000) HEALTH_SILENCE_CHECK_MS = 5000;
  /**
   * How often each replica rolls up yesterday's and the day before's uptime (idempotent, serialized
   * per resource, so replicas need no coordination); 0 turns the job off (reads compute missing days
   * live from the history either way).
   */
  @IsInt() @Min(0) @Max(86_400_000) UPTIME_ROLLUP_INTERVAL_MS = 600_000;
}
