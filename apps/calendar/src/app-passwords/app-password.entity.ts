import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../tenancy/account.entity';
import type { AccountId } from '../tenancy/tenant-ids';

/**
 * A person's CalDAV app password (decision 0041): one per device or client, revocable on its own. The
 * Basic-auth username is `login`, unique across every account, so it alone names the account and the
 * person; only the SHA-256 of the password is kept. A revoked row stays (revoked_at set) and never
 * authenticates again.
 */
@Entity({ name: 'app_passwords' })
@Index('app_passwords_login_key', ['login'], { unique: true })
@Index('app_passwords_person_idx', ['accountId', 'subject'])
@Check(
  'app_passwords_lengths_ck',
  `char_length(subject) <= 256 AND char_length(label) <= 64 AND char_length(login) <= 64
          AND char_length(secret_hash) = 64`,
)
export class AppPassword {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'app_passwords_account_id_fkey' })
  accountId: AccountId;
  /** The person: the `sub` of the PlatformSession that created it. */
  @Column({ type: 'text' }) subject: string;
  /** What the person calls the client ("iPhone"). */
  @Column({ type: 'text' }) label: string;
  /** The Basic-auth username, `dav-<16 hex>`. */
  @Column({ type: 'text' }) login: string;
  /** SHA-256 of the password, hex (libs/auth hashApiKey). */
  @Column({ name: 'secret_hash', type: 'text' }) secretHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
