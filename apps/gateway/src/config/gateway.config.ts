import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Min } from 'class-validator';
import { HttpAppConfig, Sensitive } from '@platform/config';
import { GATEWAY, ROUTED_SERVICES, type UpstreamEnv } from '@platform/registry';

const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

const UPSTREAM_DEFAULTS = Object.fromEntries(
  ROUTED_SERVICES.map((s) => [s.gateway.upstreamEnv, `http://127.0.0.1:${s.port}`]),
) as Record<UpstreamEnv, string>;

/**
 * One URL setting per service behind the gateway (CALENDAR_URL, LENDING_URL, ...), named and defaulted
 * by the service registry, so a new service gets its setting without an edit here. They are own fields
 * of every instance, which is what loadConfig reads, and validated like declared ones.
 */
class UpstreamUrlSettings extends HttpAppConfig {
  constructor() {
    super();
    Object.assign(this, UPSTREAM_DEFAULTS);
  }
}
for (const key of Object.keys(UPSTREAM_DEFAULTS)) IsUrl(url)(UpstreamUrlSettings.prototype, key);

const WithUpstreamUrls = UpstreamUrlSettings as new () => UpstreamUrlSettings & Record<UpstreamEnv, string>;

export class GatewayConfig extends WithUpstreamUrls {
  override PORT = GATEWAY.port;
  /** Whole-request budget for an upstream answer; streaming responses reset it on every chunk. */
  @IsInt() @Min(100) GATEWAY_UPSTREAM_TIMEOUT_MS = 30000;
  /**
   * Who may read the API reference at /docs: `open` to anyone, `login` only with `DOCS_LOGIN`
   * credentials (HTTP Basic). `auto`: open in development and test, login in production.
   */
  @IsIn(['auto', 'open', 'login']) DOCS_ACCESS = 'auto';
  /** `user:password` for the reference when it is closed; empty keeps it closed to everyone. */
  @Sensitive()
  @IsOptional()
  @IsString()
  @Matches(/^$|^[^:\s]+:.{12,}$/, {
    message: 'DOCS_LOGIN must be user:password with a password of 12+ characters',
  })
  DOCS_LOGIN = '';
}
