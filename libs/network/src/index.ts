/**
 * Addresses and the outside network, one way each: IP literals (normalised, parsed), CIDR blocks and
 * lists (verification's IP allowlists, trusted proxies of the gateway and of verification), address
 * classes and the SSRF guard for URLs the platform calls out to (webhooks, public status monitoring),
 * and the jittered exponential backoff of retries (webhook deliveries, status mail, Kafka consumers,
 * the outbox relay).
 */
export { normalizeAddress, parseV4, parseV6 } from './ip-address';
export {
  forwardedForChain,
  rightmostUntrusted,
  clientAddress,
  trustedProxies,
  CLUSTER_TRUSTED_PROXIES,
} from './forwarded-for';
export {
  parseCidr,
  formatCidr,
  normalizeCidrList,
  cidrListProblems,
  splitCidrList,
  IpBlocks,
  type CidrBlock,
} from './cidr';
export { classifyAddress, type AddressClass } from './address-class';
export {
  assertPublicUrl,
  resolvePublicTarget,
  publicTargetPolicy,
  systemResolver,
  STRICT_TARGET_POLICY,
  MAX_PUBLIC_URL_LENGTH,
  PublicTargetError,
  PublicTargetRefusal,
  type PublicTarget,
  type PublicTargetPolicy,
  type PrivateTargetAllowance,
  type HostResolver,
  type ResolvedAddress,
  type TargetCheckOptions,
} from './public-target';
export {
  backoffCapMs,
  backoffDelayMs,
  DEFAULT_RETRY_SCHEDULE,
  type BackoffWindow,
  type RetrySchedule,
} from './backoff';
