import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { OAuthToken } from './oauth-token.entity';

/** A token as its use needs it: the token row and the current state of its key. */
export interface TokenWithKey {
  organizationId: OrganizationId;
  keyId: string;
  scopes: string[];
  expiresAt: Date;
  keyScopes: string[];
  keyRevokedAt: Date | null;
  keyExpiresAt: Date | null;
}

@Injectable()
export class OAuthTokensRepository extends TenantScopedRepository<OAuthToken, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, OAuthToken, 'organizationId');
  }

  add(organizationId: OrganizationId, row: Omit<OAuthToken, 'organizationId'>): Promise<void> {
    return this.insert(organizationId, [row]);
  }

  /** The organization's tokens that expired before `before` (kept a while for nothing but clarity). */
  purgeExpired(organizationId: OrganizationId, before: Date): Promise<number> {
    return this.delete(organizationId, { expiresAt: LessThan(before) });
  }
}
