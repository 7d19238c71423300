import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { KeyAdminError, TenancyAdminService, type KeyView } from '@platform/tenancy';
import type { PartnerPrincipal } from '../tenancy/scopes';
import { TenantData } from '../tenancy/tenant-data';
import { ApiKeysError, apiKeysError } from './api-keys.errors';
import type { GetKeyRequestsRequest, GetKeysRequest } from './dto/get-keys.request';
import type { IssueKeyRequest } from './dto/issue-key.request';
import type {
  IssuedKeyResponse,
  KeyRequestResponse,
  KeyResponse,
  ReissuedKeyResponse,
} from './dto/key.response';
import { DEFAULT_OVERLAP_SECONDS, type ReissueKeyRequest } from './dto/reissue-key.request';
import { KeyRequestsRepository } from './key-requests.repository';
import { KeyUsageRepository } from './key-usage.repository';

/**
 * An organization's own partner keys, managed by a key holding `keys:admin` (docs/lending/api-keys.md).
 * The keys themselves (hashes, scopes, reissue overlap, revocation, the key cache) are libs/tenancy's,
 * exactly as the admin CLI uses them; here they are confined to the calling key's organization and to
 * the scopes it holds. Last-used times and the request log are the organization's tenant data, kept
 * with its keys on the control database in both tenancy modes (TenantData.withKeys).
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly admin: TenancyAdminService,
    private readonly data: TenantData,
    private readonly usage: KeyUsageRepository,
    private readonly requests: KeyRequestsRepository,
  ) {}

  async issue(caller: PartnerPrincipal, body: IssueKeyRequest): Promise<IssuedKeyResponse> {
    const key = await this.refusing(() =>
      this.admin.issueKey(caller.ownerId, body.label, { scopes: body.scopes, grantor: grantor(caller) }),
    );
    return { apiKey: key.token, keyId: key.keyId, label: key.label, scopes: key.scopes };
  }

  async reissue(caller: PartnerPrincipal, body: ReissueKeyRequest): Promise<ReissuedKeyResponse> {
    const overlap = body.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
    const key = await this.refusing(
      () => this.admin.reissueKey(body.keyId, overlap, grantor(caller)),
      body.keyId,
    );
    return {
      apiKey: key.token,
      keyId: key.keyId,
      label: key.label,
      scopes: key.scopes,
      replacedKeyId: key.replacedKeyId,
      replacedKeyExpiresAt: key.replacedKeyExpiresAt,
    };
  }

  async revoke(caller: PartnerPrincipal, keyId: string): Promise<KeyResponse> {
    const key = await this.admin.revokeOwnedKey(caller.ownerId, keyId);
    if (!key) throw apiKeysError(ApiKeysError.NOT_FOUND, { keyId });
    return (await this.withLastUse(caller, [key]))[0];
  }

  async page(caller: PartnerPrincipal, q: GetKeysRequest): Promise<ListValue<KeyResponse>> {
    const { items, total } = await this.admin.pageKeys(caller.ownerId, q.Offset ?? 0, q.Count ?? 20);
    return { items: await this.withLastUse(caller, items), total };
  }

  async requestsOf(
    caller: PartnerPrincipal,
    q: GetKeyRequestsRequest,
  ): Promise<ListValue<KeyRequestResponse>> {
    // The log is row-level secured anyway; the check makes another organization's key a 404, not [].
    if (!(await this.admin.findKey(caller.ownerId, q.KeyId)))
      throw apiKeysError(ApiKeysError.NOT_FOUND, { keyId: q.KeyId });
    const [rows, total] = await this.data.withKeys(caller.ownerId, (tx) =>
      this.requests.pageOf(caller.ownerId, q.KeyId, q.Offset ?? 0, q.Count ?? 20, tx),
    );
    return {
      items: rows.map((r) => ({
        at: r.at.toISOString(),
        method: r.method,
        path: r.path,
        status: r.status,
        durationMs: r.durationMs,
        requestId: r.requestId,
      })),
      total,
    };
  }

  private async withLastUse(caller: PartnerPrincipal, keys: KeyView[]): Promise<KeyResponse[]> {
    const used = await this.data.withKeys(caller.ownerId, (tx) =>
      this.usage.lastUsed(
        caller.ownerId,
        keys.map((k) => k.keyId),
        tx,
      ),
    );
    return keys.map((k) => ({
      keyId: k.keyId,
      label: k.label,
      scopes: k.scopes,
      createdAt: k.createdAt,
      expiresAt: k.expiresAt,
      revokedAt: k.revokedAt,
      lastUsedAt: used.get(k.keyId)?.toISOString() ?? null,
    }));
  }

  /** The library's refusals as this area's errors. */
  private async refusing<R>(work: () => Promise<R>, keyId?: string): Promise<R> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof KeyAdminError)) throw err;
      switch (err.problem) {
        case 'not-found':
          throw apiKeysError(ApiKeysError.NOT_FOUND, { keyId });
        case 'not-live':
          throw apiKeysError(ApiKeysError.NOT_LIVE, { keyId });
        case 'scope-escalation':
          throw apiKeysError(
            ApiKeysError.SCOPE_ESCALATION,
            { scopes: err.scopes.join(', ') },
            { scopesNotHeld: err.scopes },
          );
        case 'limit-reached':
          throw apiKeysError(ApiKeysError.LIMIT_REACHED, { max: err.max }, { max: err.max });
        // Validation admits only lending's scopes, and the caller's organization exists (its key does).
        case 'unknown-scopes':
        case 'unknown-owner':
          throw err;
      }
    }
  }
}

const grantor = (caller: PartnerPrincipal) => ({ ownerId: caller.ownerId, scopes: caller.scopes });
