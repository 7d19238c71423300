import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { TtlCache, type OrganizationId } from '@platform/tenancy';
import { VerificationConfig } from '../config/verification.config';
import { AccessError, accessError } from './access.errors';
import { clientAddress, trustedProxies } from './client-address';
import { IpBlocks, normalizeCidrList } from '@platform/network';
import { IP_ALLOWLIST_MAX_ENTRIES } from './dto/ip-allowlist.dto';
import { OrganizationSettingsRepository } from './organization-settings.repository';

export interface IpAllowlistView {
  ipAllowlist: string[];
  updatedAt: string | null;
}

/**
 * The organizations' IP allowlists (docs/verification/access.md, "IP allowlist"). Read per request, so
 * each replica keeps a list for `API_KEY_CACHE_TTL_MS` (at most 5 s, like the keys): a change made
 * through this replica applies here at once, elsewhere within that bound.
 */
@Injectable()
export class IpAllowlistService {
  private readonly cache: TtlCache<IpBlocks>;
  private readonly trusted: IpBlocks;

  constructor(
    config: VerificationConfig,
    private readonly settings: OrganizationSettingsRepository,
  ) {
    this.cache = new TtlCache({
      ttlMs: config.API_KEY_CACHE_TTL_MS,
      maxEntries: config.API_KEY_CACHE_MAX_ENTRIES,
    });
    this.trusted = trustedProxies(config.TRUSTED_PROXIES);
  }

  /** The caller's address, believing X-Forwarded-For only from a trusted proxy. */
  addressOf(req: IncomingMessage): string | undefined {
    return clientAddress(req.socket?.remoteAddress, req.headers, this.trusted);
  }

  async allows(organizationId: OrganizationId, address: string | undefined): Promise<boolean> {
    const blocks = await this.blocksOf(organizationId);
    return blocks.isEmpty || blocks.contains(address);
  }

  /** 403 IP_NOT_ALLOWED when the organization restricts addresses and this one is outside. */
  async enforce(organizationId: OrganizationId, address: string | undefined): Promise<void> {
    if (!(await this.allows(organizationId, address)))
      throw accessError(AccessError.IP_NOT_ALLOWED, { address: address ?? 'unknown' });
  }

  async get(organizationId: OrganizationId): Promise<IpAllowlistView> {
    const row = await this.settings.get(organizationId);
    return { ipAllowlist: row?.ipAllowlist ?? [], updatedAt: row?.updatedAt.toISOString() ?? null };
  }

  /**
   * Replaces the list with its normalised form. A non-empty list must hold the caller's own address:
   * otherwise the request saving it would be the organization's last.
   */
  async put(
    organizationId: OrganizationId,
    entries: string[],
    callerAddress: string | undefined,
  ): Promise<IpAllowlistView> {
    const normalized = normalizeCidrList(entries.slice(0, IP_ALLOWLIST_MAX_ENTRIES));
    if ('invalid' in normalized)
      throw accessError(
        AccessError.IP_ALLOWLIST_INVALID,
        { entries: normalized.invalid.slice(0, 10).join(', ') },
        { invalidEntries: normalized.invalid },
      );
    const blocks = new IpBlocks(normalized.blocks);
    if (!blocks.isEmpty && !blocks.contains(callerAddress))
      throw accessError(AccessError.IP_ALLOWLIST_LOCKOUT, { address: callerAddress ?? 'unknown' });
    const row = await this.settings.saveIpAllowlist(organizationId, normalized.blocks);
    this.cache.forget(organizationId);
    return { ipAllowlist: row.ipAllowlist, updatedAt: row.updatedAt.toISOString() };
  }

  private async blocksOf(organizationId: OrganizationId): Promise<IpBlocks> {
    const cached = this.cache.get(organizationId);
    if (cached) return cached;
    const row = await this.settings.get(organizationId);
    const blocks = new IpBlocks(row?.ipAllowlist ?? []);
    this.cache.set(organizationId, blocks);
    return blocks;
  }
}
