import { IsIn, IsInt, IsNotIn, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';
import { DataServiceConfig, Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import { GATEWAY, service } from '@platform/registry';
import { withWebhookSettings } from '@platform/webhooks';

/** Development defaults of the subscription secrets: refused when NODE_ENV is production. */
export const DEV_SUBSCRIPTION_TOKEN_SECRET = 'dev-only-public-status-subscription-secret';
export const DEV_WEBHOOKS_SECRET_KEY = 'dev-only-public-status-webhooks-secret-key';

export class PublicStatusConfig extends withWebhookSettings(DataServiceConfig, DEV_WEBHOOKS_SECRET_KEY) {
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
  /**
   * How often each replica claims due monitoring checks (FOR UPDATE SKIP LOCKED, so replicas share the
   * work without coordination); 0 turns the runner off on this replica (apps/public-status/src/monitoring).
   */
  @IsInt() @Min(0) @Max(60_000) MONITORING_TICK_MS = 1000;
  /** Checks one replica claims and runs at once per tick. */
  @IsInt() @Min(1) @Max(500) MONITORING_BATCH = 20;
  /** Check results older than this are purged (any replica; batched deletes). */
  @IsInt() @Min(1) @Max(400) MONITORING_RESULT_RETENTION_DAYS = 30;
  /**
   * `loopback` lets checks probe 127.0.0.1 / ::1 over plain http (tests, a single-host self-hosted
   * setup); refused when NODE_ENV=production. Every other private, link-local or metadata address is
   * always refused (the SSRF guard of @platform/webhooks, decision 0023).
   */
  @IsIn(['off', 'loopback']) MONITORING_ALLOW_PRIVATE_TARGETS: 'off' | 'loopback' = 'off';
  /**
   * How often each replica maps the platform's health (decision 0021) onto resources naming a
   * `platform_service`; idempotent, so replicas need no coordination. 0 turns it off on this replica.
   */
  @IsInt() @Min(0) @Max(3_600_000) HEALTH_SYNC_MS = 5000;
  /**
   * Where the public reads the status page (the gateway's public origin): the base of the absolute
   * links in the RSS feed and in subscriber mail. Never taken from a request's Host header.
   */
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  PUBLIC_STATUS_URL = `http://localhost:${GATEWAY.port}`;
  /** SMTP server of subscriber mail (nodemailer URL: smtp://, smtps://, with credentials if any). */
  @Sensitive()
  @IsUrl({ protocols: ['smtp', 'smtps'], require_protocol: true, require_tld: false })
  SMTP_URL = 'smtp://localhost:1025';
  @IsString() MAIL_FROM = 'Status <status@localhost>';
  /** How often each replica's mail worker looks for due mail; 0 turns it off (an enqueue-only replica). */
  @IsInt() @Min(0) @Max(3_600_000) MAIL_WORKER_INTERVAL_MS = 1000;
  /** Attempts of one mail before it is dead (exponential backoff with full jitter between them). */
  @IsInt() @Min(1) @Max(50) MAIL_MAX_ATTEMPTS = 10;
  /** Subscribers (email and webhook, pending included) per business: anonymous sign-ups are bounded. */
  @IsInt() @Min(1) @Max(1_000_000) SUBSCRIBERS_MAX_PER_BUSINESS = 10_000;
  /** Life of an email confirmation link. */
  @IsInt() @Min(1) @Max(720) SUBSCRIBE_CONFIRM_TTL_HOURS = 48;
  /**
   * HMAC key of confirmation and unsubscribe links; changing it invalidates every link sent. When set,
   * at least 32 characters and not the development default. Unset: the development default outside
   * production; in production subscriptions are off (503) until it and WEBHOOKS_SECRET_KEY are set, as
   * the generated deployments carry no such secret yet (the same choice as CALENDAR_RSVP_SECRET).
   */
  @Sensitive()
  @ValidateIf((c: PublicStatusConfig) => c.SUBSCRIPTION_TOKEN_SECRET !== '')
  @MinChars(32, { message: 'SUBSCRIPTION_TOKEN_SECRET must have at least 32 characters' })
  @IsNotIn([DEV_SUBSCRIPTION_TOKEN_SECRET], {
    message: 'SUBSCRIPTION_TOKEN_SECRET must not be the development default',
  })
  SUBSCRIPTION_TOKEN_SECRET = '';
  // WEBHOOKS_SECRET_KEY (unset as above), WEBHOOKS_WORKER_INTERVAL_MS, WEBHOOKS_ALLOW_PRIVATE_TARGETS and
  // the retry schedule: libs/webhooks' withWebhookSettings, as lending and verification (decision 0018).

  /** The key of subscription links, or null when subscriptions are off (production without one). */
  subscriptionTokenSecret(): string | null {
    if (this.SUBSCRIPTION_TOKEN_SECRET) return this.SUBSCRIPTION_TOKEN_SECRET;
    return this.NODE_ENV === 'production' ? null : DEV_SUBSCRIPTION_TOKEN_SECRET;
  }
}
