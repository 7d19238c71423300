import { IsInt, IsUrl, Min } from 'class-validator';
import { HttpAppConfig } from '@platform/config';

const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

export class GatewayConfig extends HttpAppConfig {
  override PORT = 3000;
  @IsUrl(url) CALENDAR_URL = 'http://127.0.0.1:3001';
  @IsUrl(url) PUBLIC_STATUS_URL = 'http://127.0.0.1:3002';
  @IsUrl(url) LENDING_URL = 'http://127.0.0.1:3003';
  @IsUrl(url) VERIFICATION_URL = 'http://127.0.0.1:3004';
  @IsUrl(url) OUTBOX_RELAY_URL = 'http://127.0.0.1:3005';
  /** Whole-request budget for an upstream answer; streaming responses reset it on every chunk. */
  @IsInt() @Min(100) GATEWAY_UPSTREAM_TIMEOUT_MS = 30000;
}
