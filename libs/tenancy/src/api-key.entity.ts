import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A table a key can belong to: `organizations` (lending, verification), `products` (calendar). */
export interface KeyOwnerEntity {
  id: string;
  name: string;
}

/**
 * The columns of every service's `api_keys` table. Only the SHA-256 of the token is stored; `keyId`
 * (public, part of the token) finds the row.
 */
export abstract class ApiKeyColumns {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'key_id', type: 'text', unique: true }) keyId: string;
  /** The tenant (organization, product) the key authenticates as. */
  @Column({ name: 'owner_id', type: 'text' }) ownerId: string;
  @Column({ type: 'text' }) hash: string;
  @Column({ type: 'text' }) label: string;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) scopes: string[];
  /** A product's default key is exempt from the request log (calendar spec). */
  @Column({ name: 'is_default', type: 'boolean', default: false }) isDefault: boolean;
  /** Set on the old key when it is reissued: it keeps working until then, for a rollover without downtime. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

export type ApiKeyEntity = new () => ApiKeyColumns;

/**
 * The `api_keys` entity of one service, with its foreign key to that service's owner table. One
 * definition; each service names its owner. Matches `apiKeyTablesDdl`.
 */
export function apiKeyEntity(owner: () => new () => KeyOwnerEntity): ApiKeyEntity {
  @Entity({ name: 'api_keys' })
  @Index('api_keys_owner_idx', ['ownerId'])
  @ForeignKey(owner, ['ownerId'], ['id'], { name: 'api_keys_owner_id_fkey' })
  class ApiKey extends ApiKeyColumns {}
  return ApiKey;
}
