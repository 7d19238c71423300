import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OrganizationId } from '../tenancy/tenant-ids';
import { LoanApplication } from './application.entity';

@Injectable()
export class ApplicationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The organization is a required, branded argument: no query can forget its tenant. */
  page(organizationId: OrganizationId, offset: number, count: number): Promise<[LoanApplication[], number]> {
    return this.ds.getRepository(LoanApplication).findAndCount({
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: count,
    });
  }
}
