// Unscoped: authentication's lookup by token hash runs before the organization is known; the token names it.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OrganizationId } from '@platform/tenancy';
import type { TokenWithKey } from './oauth-tokens.repository';

/** Access tokens found by their hash, across organizations (the token is the credential). */
@Injectable()
export class OAuthTokenLookupRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Authentication's lookup, unscoped by design like the key lookup: the token names its organization.
   * One round trip returns the token and its key's current state, so a revoked key's tokens stop at once.
   */
  async findWithKey(tokenHash: string): Promise<TokenWithKey | null> {
    const rows = (await this.ds.query(
      `SELECT t.organization_id, t.key_id, t.scopes, t.expires_at,
              k.scopes AS key_scopes, k.revoked_at AS key_revoked_at, k.expires_at AS key_expires_at
         FROM oauth_tokens t JOIN api_keys k ON k.key_id = t.key_id AND k.owner_id = t.organization_id
        WHERE t.token_hash = $1`,
      [tokenHash],
    )) as {
      organization_id: string;
      key_id: string;
      scopes: string[];
      expires_at: Date;
      key_scopes: string[];
      key_revoked_at: Date | null;
      key_expires_at: Date | null;
    }[];
    const r = rows[0];
    if (!r) return null;
    return {
      organizationId: r.organization_id as OrganizationId,
      keyId: r.key_id,
      scopes: r.scopes,
      expiresAt: r.expires_at,
      keyScopes: r.key_scopes,
      keyRevokedAt: r.key_revoked_at,
      keyExpiresAt: r.key_expires_at,
    };
  }
}
