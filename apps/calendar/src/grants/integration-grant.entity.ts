import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Account } from '../tenancy/account.entity';
import { Product } from '../tenancy/product.entity';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import type { Permission } from './permissions';

@Entity({ name: 'integration_grants' })
@Check('integration_grants_permission_check', `permission IN ('Read', 'Push', 'FreeBusy', 'Share')`)
export class IntegrationGrant {
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'integration_grants_account_id_fkey' })
  accountId: AccountId;
  @PrimaryColumn({ name: 'product_id', type: 'text' })
  @ForeignKey(() => Product, { name: 'integration_grants_product_id_fkey' })
  productId: ProductId;
  @PrimaryColumn({ type: 'text' }) permission: Permission;
  @Column({ name: 'granted_by', type: 'text' }) grantedBy: string;
  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' }) grantedAt: Date;
}

@Entity({ name: 'team_members' })
@Index('team_members_person_idx', ['accountId', 'personId'])
export class TeamMember {
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'team_members_account_id_fkey' })
  accountId: AccountId;
  @PrimaryColumn({ name: 'team_id', type: 'text' }) teamId: string;
  @PrimaryColumn({ name: 'person_id', type: 'text' }) personId: string;
}
