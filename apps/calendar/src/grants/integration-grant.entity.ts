import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Permission } from './permissions';

@Entity({ name: 'integration_grants' })
export class IntegrationGrant {
  @PrimaryColumn({ name: 'account_id', type: 'text' }) accountId: string;
  @PrimaryColumn({ name: 'product_id', type: 'text' }) productId: string;
  @PrimaryColumn({ type: 'text' }) permission: Permission;
  @Column({ name: 'granted_by', type: 'text' }) grantedBy: string;
  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' }) grantedAt: Date;
}

@Entity({ name: 'team_members' })
export class TeamMember {
  @PrimaryColumn({ name: 'account_id', type: 'text' }) accountId: string;
  @PrimaryColumn({ name: 'team_id', type: 'text' }) teamId: string;
  @PrimaryColumn({ name: 'person_id', type: 'text' }) personId: string;
}
