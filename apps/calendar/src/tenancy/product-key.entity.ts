import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A product's API key. Only the SHA-256 of the token is stored; `keyId` finds the row. */
@Entity({ name: 'product_keys' })
export class ProductKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'key_id', type: 'text', unique: true }) keyId: string;
  @Column({ name: 'product_id', type: 'text' }) productId: string;
  @Column({ type: 'text' }) hash: string;
  @Column({ type: 'text' }) label: string;
  /** The product's default key is exempt from the request log (spec: the log is kept for non-default keys). */
  @Column({ name: 'is_default', type: 'boolean', default: false }) isDefault: boolean;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
