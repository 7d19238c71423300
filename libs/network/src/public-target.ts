import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class';

/** Why a webhook URL is refused. Services map these to their own coded, localised errors. */
export enum PublicTargetRefusal {
  INVALID_URL = 'WEBHOOK_URL_INVALID',
  INSECURE_SCHEME = 'WEBHOOK_URL_INSECURE_SCHEME',
  PRIVATE_ADDRESS = 'WEBHOOK_URL_PRIVATE_ADDRESS',
  UNRESOLVABLE = 'WEBHOOK_URL_UNRESOLVABLE',
}

export class PublicTargetError extends Error {
  constructor(
    readonly reason: PublicTargetRefusal,
    message: string,
    /** The offending address and its class, for PRIVATE_ADDRESS. */
    readonly details: { address?: string; addressClass?: AddressClass } = {},
  ) {
    super(message);
    this.name = 'PublicTargetError';
  }
}

/**
 * `loopback` lets tests use a receiver on 127.0.0.1 / ::1 (and plain http to it, only to it). Nothing
 * else private is ever allowed. Off by default; refused when NODE_ENV is production.
 */
export type PrivateTargetAllowance = 'off' | 'loopback';

export interface PublicTargetPolicy {
  readonly allowPrivateTargets: PrivateTargetAllowance;
}

export const STRICT_TARGET_POLICY: PublicTargetPolicy = Object.freeze({ allowPrivateTargets: 'off' });

/**
 * Builds the policy from an app's typed config (`WEBHOOKS_ALLOW_PRIVATE_TARGETS`, `NODE_ENV`). Throws
 * at boot on an unknown value or on the test allowance in production.
 */
export function publicTargetPolicy(
  allowPrivateTargets: string | undefined,
  nodeEnv: string,
): PublicTargetPolicy {
  const value = allowPrivateTargets === undefined || allowPrivateTargets === '' ? 'off' : allowPrivateTargets;
  if (value !== 'off' && value !== 'loopback') {
    throw new Error(`WEBHOOKS_ALLOW_PRIVATE_TARGETS must be "off" or "loopback", not "${value}"`);
  }
  if (value !== 'off' && nodeEnv === 'production') {
    throw new Error(
      'WEBHOOKS_ALLOW_PRIVATE_TARGETS is a test setting: it cannot be on when NODE_ENV=production',
    );
  }
  return Object.freeze({ allowPrivateTargets: value });
}

function assertPolicyUsable(policy: PublicTargetPolicy): void {
  // A second latch that a mis-wired config cannot bypass: the one read of the environment in this lib,
  // on purpose, because the cost of the allowance leaking into production is an SSRF hole.
  if (policy.allowPrivateTargets !== 'off' && process.env.NODE_ENV === 'production') {
    throw new Error('the loopback webhook allowance is refused in production');
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (tests inject one to simulate DNS answers). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A URL whose every address was checked, with the one to connect to. */
export interface PublicTarget {
  url: URL;
  /** Host name without IPv6 brackets (for SNI and the Host header). */
  hostname: string;
  port: number;
  /** The checked address the connection is pinned to. */
  address: string;
  family: 4 | 6;
  addresses: ResolvedAddress[];
}

export interface TargetCheckOptions {
  policy?: PublicTargetPolicy;
  resolve?: HostResolver;
}

export const MAX_PUBLIC_URL_LENGTH = 2048;

function parse(raw: string, policy: PublicTargetPolicy): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_PUBLIC_URL_LENGTH) {
    throw new PublicTargetError(PublicTargetRefusal.INVALID_URL, 'webhook URL is empty or too long');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PublicTargetError(PublicTargetRefusal.INVALID_URL, 'webhook URL is not a valid absolute URL');
  }
  const plainAllowed = policy.allowPrivateTargets === 'loopback' && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !plainAllowed) {
    throw new PublicTargetError(
      PublicTargetRefusal.INSECURE_SCHEME,
      `scheme ${url.protocol} is not allowed: use https`,
    );
  }
  // Credentials in a URL end up in logs and in the delivery log; the receiver authenticates by signature.
  if (url.username || url.password) {
    throw new PublicTargetError(PublicTargetRefusal.INVALID_URL, 'webhook URL must not carry credentials');
  }
  if (!url.hostname) throw new PublicTargetError(PublicTargetRefusal.INVALID_URL, 'webhook URL has no host');
  return url;
}

function allowed(cls: AddressClass, policy: PublicTargetPolicy): boolean {
  return cls === 'public' || (cls === 'loopback' && policy.allowPrivateTargets === 'loopback');
}

/**
 * The SSRF guard: parses the URL, resolves its host and checks every address (all must be public: a
 * name with one private address among public ones could be answered with that one at connect time).
 * Returns the first address, which the caller must connect to (no second lookup: DNS rebinding).
 */
export async function resolvePublicTarget(raw: string, opts: TargetCheckOptions = {}): Promise<PublicTarget> {
  const policy = opts.policy ?? STRICT_TARGET_POLICY;
  assertPolicyUsable(policy);
  const url = parse(raw, policy);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(hostname);
    } catch (err) {
      throw new PublicTargetError(
        PublicTargetRefusal.UNRESOLVABLE,
        `host ${hostname} does not resolve: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
    if (!addresses.length) {
      throw new PublicTargetError(PublicTargetRefusal.UNRESOLVABLE, `host ${hostname} has no address`);
    }
  }
  for (const a of addresses) {
    const cls = classifyAddress(a.address);
    if (!allowed(cls, policy)) {
      throw new PublicTargetError(
        PublicTargetRefusal.PRIVATE_ADDRESS,
        `host ${hostname} resolves to ${a.address} (${cls}): webhooks go to public addresses only`,
        { address: a.address, addressClass: cls },
      );
    }
    // Plain http only under the loopback allowance, and then only to loopback.
    if (url.protocol === 'http:' && cls !== 'loopback') {
      throw new PublicTargetError(
        PublicTargetRefusal.INSECURE_SCHEME,
        'scheme http: is not allowed: use https',
      );
    }
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, hostname, port, address: addresses[0].address, family: addresses[0].family, addresses };
}

/**
 * Checks a URL at subscription time and returns it normalised (WHATWG serialisation: `0x7f.1` becomes
 * `127.0.0.1`, so what is stored is what was checked). Deliveries check it again after resolution.
 */
export async function assertPublicUrl(raw: string, opts: TargetCheckOptions = {}): Promise<string> {
  const target = await resolvePublicTarget(raw, opts);
  return target.url.toString();
}
