import { Inject, Injectable } from '@nestjs/common';
import { issueApiKey } from '@platform/auth';
import { Transactions } from '@platform/persistence';
import type { ApiKeyColumns } from './api-key.entity';
import { ApiKeyLookupRepository } from './api-key-lookup.unscoped.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { KeyCache } from './key-cache';
import { OwnersRepository } from './owners.unscoped.repository';
import {
  TENANCY_OPTIONS,
  TENANCY_SETTINGS,
  type TenancyOptions,
  type TenancySettings,
} from './tenancy.options';

export interface IssuedKey {
  /** The whole secret: shown once, never stored. */
  token: string;
  keyId: string;
  ownerId: string;
  label: string;
  scopes: string[];
}

export interface KeyView {
  keyId: string;
  label: string;
  scopes: string[];
  isDefault: boolean;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** Why a key operation was refused: the CLI prints the message, an API maps the problem to its error. */
export type KeyAdminProblem =
  'unknown-owner' | 'unknown-scopes' | 'not-found' | 'not-live' | 'scope-escalation' | 'limit-reached';

export class KeyAdminError extends Error {
  constructor(
    readonly problem: KeyAdminProblem,
    message: string,
    /** The scopes at fault: unknown ones, or those the grantor does not hold. */
    readonly scopes: string[] = [],
    /** `limit-reached`: how many live keys an owner may hold. */
    readonly max?: number,
  ) {
    super(message);
    this.name = 'KeyAdminError';
  }
}

/**
 * Who asks, when a tenant manages its own keys through an API rather than an operator through the CLI:
 * only that owner's keys exist for it, and a key it issues or reissues may hold only scopes it holds.
 */
export interface KeyGrantor {
  ownerId: string;
  scopes: readonly string[];
}

const view = (k: ApiKeyColumns): KeyView => ({
  keyId: k.keyId,
  label: k.label,
  scopes: k.scopes,
  isDefault: k.isDefault,
  createdAt: k.createdAt.toISOString(),
  expiresAt: k.expiresAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Operator tasks on tenants and their keys, behind every service's admin CLI and development seed. */
@Injectable()
export class TenancyAdminService {
  constructor(
    private readonly owners: OwnersRepository,
    private readonly keys: ApiKeysRepository,
    private readonly lookup: ApiKeyLookupRepository,
    private readonly transactions: Transactions,
    private readonly cache: KeyCache,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
    @Inject(TENANCY_SETTINGS) private readonly settings: TenancySettings,
  ) {}

  /** At most `maxLiveKeys` live keys per owner, held under concurrency (ApiKeysRepository.withinLiveBound). */
  private liveBound(except?: string) {
    return {
      max: this.settings.maxLiveKeys,
      except,
      full: (max: number) =>
        new KeyAdminError('limit-reached', `the ${this.options.ownerNoun} holds ${max} live keys`, [], max),
    };
  }

  createOwner(id: string, name: string) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(id)) {
      throw new Error(`${this.options.ownerNoun} id must be 1-64 letters, digits, '.', '_' or '-'`);
    }
    return this.owners.ensure(id, name);
  }

  /**
   * Issues a key with the given scopes (all of the service's by default); the token is returned once.
   * With a `grantor` (an API caller), only scopes the grantor holds, and only for its own owner.
   */
  async issueKey(
    ownerId: string,
    label: string,
    opts: { scopes?: string[]; isDefault?: boolean; grantor?: KeyGrantor } = {},
  ): Promise<IssuedKey> {
    const scopes = [...new Set(opts.scopes ?? this.options.scopes)];
    const unknown = scopes.filter((s) => !this.options.scopes.includes(s));
    if (unknown.length)
      throw new KeyAdminError('unknown-scopes', `unknown scopes: ${unknown.join(', ')}`, unknown);
    if (opts.grantor) {
      if (opts.grantor.ownerId !== ownerId)
        throw new KeyAdminError('unknown-owner', "not the grantor's own keys");
      this.checkGrant(opts.grantor, scopes);
    }
    if (!(await this.owners.exists(ownerId)))
      throw new KeyAdminError('unknown-owner', `unknown ${this.options.ownerNoun}: ${ownerId}`);
    const key = issueApiKey(this.options.keyPrefix);
    await this.transactions.run((tx) =>
      this.keys.withinLiveBound(tx, ownerId, this.liveBound(), () =>
        this.keys.add(
          ownerId,
          { keyId: key.keyId, hash: key.hash, label, scopes, isDefault: opts.isDefault ?? false },
          tx,
        ),
      ),
    );
    return { token: key.token, keyId: key.keyId, ownerId, label, scopes };
  }

  /**
   * A rollover without downtime: a new key with the same owner, label and scopes works at once; the old
   * one keeps working for `overlapSeconds`, then stops (API_KEY_EXPIRED).
   */
  async reissueKey(
    keyId: string,
    overlapSeconds: number,
    grantor?: KeyGrantor,
  ): Promise<IssuedKey & { replacedKeyId: string; replacedKeyExpiresAt: string }> {
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0) {
      throw new Error('overlap must be a whole number of seconds, 0 or more');
    }
    return this.transactions.run(async (tx) => {
      const old = await this.lookup.lockByKeyId(keyId, tx);
      // Another owner's key is one the grantor cannot know of: not found, like an unknown id.
      if (!old || (grantor && old.ownerId !== grantor.ownerId))
        throw new KeyAdminError('not-found', `no live key ${keyId}`);
      if (old.revokedAt || (old.expiresAt && old.expiresAt <= new Date()))
        throw new KeyAdminError('not-live', `no live key ${keyId}`);
      // The new secret carries the old key's scopes: reissuing is granting them.
      if (grantor) this.checkGrant(grantor, old.scopes);
      const key = issueApiKey(this.options.keyPrefix);
      await this.keys.withinLiveBound(tx, old.ownerId, this.liveBound(old.keyId), () =>
        this.keys.add(
          old.ownerId,
          {
            keyId: key.keyId,
            hash: key.hash,
            label: old.label,
            scopes: old.scopes,
            isDefault: old.isDefault,
          },
          tx,
        ),
      );
      const until = new Date(Date.now() + overlapSeconds * 1000);
      // An overlap never extends a key that was already due to stop sooner.
      const expiresAt = old.expiresAt && old.expiresAt < until ? old.expiresAt : until;
      await this.keys.expire(old.ownerId, old.keyId, expiresAt, tx);
      this.cache.forget(old.keyId);
      return {
        token: key.token,
        keyId: key.keyId,
        ownerId: old.ownerId,
        label: old.label,
        scopes: old.scopes,
        replacedKeyId: old.keyId,
        replacedKeyExpiresAt: expiresAt.toISOString(),
      };
    });
  }

  /**
   * At once in this process; other replicas (and a revoke by the admin CLI) within the key cache's
   * lifetime, `API_KEY_CACHE_TTL_MS`.
   */
  async revokeKey(keyId: string): Promise<boolean> {
    const revoked = await this.lookup.revokeByKeyId(keyId);
    this.cache.forget(keyId);
    return revoked;
  }

  /**
   * The owner's key revoked (at once here, elsewhere within `API_KEY_CACHE_TTL_MS`); one revoked
   * already stays as it was. Null when the owner has no such key.
   */
  async revokeOwnedKey(ownerId: string, keyId: string): Promise<KeyView | null> {
    await this.keys.revokeOwned(ownerId, keyId);
    this.cache.forget(keyId);
    const key = await this.keys.findOwned(ownerId, keyId);
    return key && view(key);
  }

  async revokeKeysLabelled(ownerId: string, label: string): Promise<number> {
    const keys = await this.keys.listOf(ownerId);
    const revoked = await this.keys.revokeByLabel(ownerId, label);
    keys.filter((k) => k.label === label).forEach((k) => this.cache.forget(k.keyId));
    return revoked;
  }

  async listKeys(ownerId: string): Promise<KeyView[]> {
    return (await this.keys.listOf(ownerId)).map(view);
  }

  /** One page of the owner's keys, newest first, with the owner's total; never a secret or a hash. */
  async pageKeys(
    ownerId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: KeyView[]; total: number }> {
    const [rows, total] = await this.keys.pageOf(ownerId, offset, limit);
    return { items: rows.map(view), total };
  }

  async findKey(ownerId: string, keyId: string): Promise<KeyView | null> {
    const key = await this.keys.findOwned(ownerId, keyId);
    return key && view(key);
  }

  /** A key can never grant more than its issuer holds (decision 0005). */
  private checkGrant(grantor: KeyGrantor, scopes: readonly string[]): void {
    const beyond = scopes.filter((s) => !grantor.scopes.includes(s));
    if (beyond.length)
      throw new KeyAdminError(
        'scope-escalation',
        `scopes the grantor does not hold: ${beyond.join(', ')}`,
        beyond,
      );
  }
}
