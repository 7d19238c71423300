import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A lender using the platform; selected per request by the `Organization-Id` header. */
@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
