// Unscoped: a report's public address names it by its random id alone, before (and without) an organization.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { ReportIssuance } from './report-issuance.entity';
import type { PublicReportIssuance } from './report-issuances.repository';

/** Report issuances as the anonymous public address reads them (docs/verification/reports.md). */
@Injectable()
export class PublicReportsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The public address's lookup, unscoped by design: the report id (a random UUID printed in the PDF)
   * names the report, and the anonymous page shows only what docs/verification/reports.md lists.
   */
  async findPublic(id: string): Promise<PublicReportIssuance | null> {
    const issuance = await this.ds.getRepository(ReportIssuance).findOneBy({ id });
    if (!issuance) return null;
    return { issuance, organizationName: await this.organizationName(issuance.organizationId) };
  }

  /** The exact PDF bytes of a report (unscoped like findPublic: the password view answers them). */
  async pdfOf(id: string): Promise<Buffer | null> {
    const row = await this.ds
      .getRepository(ReportIssuance)
      .createQueryBuilder('r')
      .select('r.id')
      .addSelect('r.pdf')
      .where('r.id = :id', { id })
      .getOne();
    return row?.pdf ?? null;
  }
  private async organizationName(id: OrganizationId): Promise<string> {
    return (await this.ds.getRepository(Organization).findOneBy({ id }))?.name ?? id;
  }
}
