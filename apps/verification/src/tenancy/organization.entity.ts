import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The organization a caller acts for (`Service-Organization-Id`). */
@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
