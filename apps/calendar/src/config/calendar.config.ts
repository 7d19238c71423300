import { IsIn, IsInt, IsNotIn, IsOptional, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';
import { DataServiceConfig, Parses, Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import { CLUSTER_TRUSTED_PROXIES, cidrListProblems } from '@platform/network';
import { GATEWAY, service } from '@platform/registry';

/** The development default of CALENDAR_RSVP_SECRET: refused in production. */
export const DEV_RSVP_SECRET = 'dev-only-calendar-rsvp-secret-change-me';

export class CalendarConfig extends DataServiceConfig {
  override PORT = service('calendar').port;
  override KAFKA_CLIENT_ID = service('calendar').name;
  /** Verification of `PlatformSession` JWTs: a JWKS URL, an inline JWKS, or a PEM public key. */
  @IsOptional() @IsString() SESSION_JWKS_URL = '';
  @IsOptional() @IsString() SESSION_JWKS_JSON = '';
  @IsOptional() @IsString() SESSION_PUBLIC_KEY_PEM = '';
  @IsString() SESSION_ISSUER = 'https://id.platform.local';
  @IsString() SESSION_AUDIENCE = 'calendar';
  /** Writes (upsert, remove) per product per sliding window, counted across all replicas. */
  @IsInt() @Min(1) CALENDAR_WRITE_LIMIT = 600;
  @IsInt() @Min(1) CALENDAR_WRITE_WINDOW_SEC = 60;
  /**
   * Where people reach the platform (the gateway's public origin): the CalDAV address shown with a new
   * app password is `<this>/dav/`.
   */
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  CALENDAR_PUBLIC_URL = `http://localhost:${GATEWAY.port}`;
  /** Active CalDAV app passwords one person may hold (decision 0041). */
  @IsInt() @Min(1) @Max(1000) CALENDAR_APP_PASSWORDS_PER_PERSON = 20;
  /**
   * Failed Basic logins (wrong or revoked app password) allowed per username and per client address
   * in a sliding window, counted in PostgreSQL across replicas; past either, every attempt, a right
   * password too, answers 429 until the window slides (decision 0041).
   */
  @IsInt() @Min(1) CALENDAR_DAV_AUTH_FAILURES_PER_USERNAME = 10;
  @IsInt() @Min(1) CALENDAR_DAV_AUTH_FAILURES_PER_IP = 50;
  @IsInt() @Min(1) CALENDAR_DAV_AUTH_WINDOW_SEC = 300;
  /**
   * Peers whose `X-Forwarded-For` is believed when the per-address login limit reads the client's
   * address (CIDR blocks, comma separated): the gateway. Any other peer is the client itself.
   */
  @Parses(cidrListProblems) CALENDAR_TRUSTED_PROXIES = CLUSTER_TRUSTED_PROXIES;
  /**
   * Who makes conference rooms (decision 0017): `jitsi` (room URLs on CALENDAR_JITSI_BASE_URL, no
   * account needed) or `stub` (deterministic rooms on https://stub.conference.invalid/, for tests).
   */
  @IsIn(['jitsi', 'stub']) CALENDAR_CONFERENCE_PROVIDER: 'jitsi' | 'stub' = 'jitsi';
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false })
  CALENDAR_JITSI_BASE_URL = 'https://meet.jit.si';
  /**
   * Signs external guests' rsvp links (HMAC-SHA256); rotating it invalidates every link sent. When set,
   * at least 32 characters and not the development default. Unset: the development default outside
   * production; in production guest links are off (no `rsvp_token`, token answers 403) until it is set,
   * since the generated deployments carry no such secret yet (decision 0017).
   */
  @Sensitive()
  @IsString()
  @ValidateIf((c: CalendarConfig) => c.CALENDAR_RSVP_SECRET !== '')
  @MinChars(32, { message: 'CALENDAR_RSVP_SECRET must have at least 32 characters' })
  @IsNotIn([DEV_RSVP_SECRET], { message: 'CALENDAR_RSVP_SECRET must not be the development default' })
  CALENDAR_RSVP_SECRET = '';

  /** The key of rsvp links, or null when guest links are off (production without a secret). */
  rsvpSecret(): string | null {
    if (this.CALENDAR_RSVP_SECRET) return this.CALENDAR_RSVP_SECRET;
    return this.NODE_ENV === 'production' ? null : DEV_RSVP_SECRET;
  }
}
