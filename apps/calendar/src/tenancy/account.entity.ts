import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A company whose calendar the service keeps. Its id is the `AccountId` header. */
@Entity({ name: 'accounts' })
export class Account {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
