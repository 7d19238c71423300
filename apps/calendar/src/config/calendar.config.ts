import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { DataServiceConfig } from '@platform/config';
import { service } from '@platform/registry';

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
}
