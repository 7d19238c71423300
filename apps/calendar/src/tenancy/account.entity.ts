import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AccountId } from './tenant-ids';

/** A company whose calendar the service keeps. Its id is the `AccountId` header. */
@Entity({ name: 'accounts' })
export class Account {
  @PrimaryColumn({ type: 'text' }) id: AccountId;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
