import { Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import { assertDateInRange, lockCustomerForChange, today } from '../customer-lock';
import { identifierView } from '../customer-views';
import { CustomersError, customersError } from '../customers.errors';
import { CustomersRepository } from '../customers.repository';
import type { AddIdentifierRequest, RemoveIdentifierRequest } from '../dto/identifier.request';
import type { IdentifierResponse } from '../dto/customer.response';
import { CustomerIdentifiersRepository } from './customer-identifiers.repository';
import { checkIdentifier } from './identifier-rules';

/** A customer's national ids, passports and tax ids. */
@Injectable()
export class IdentifiersService {
  constructor(
    private readonly data: TenantData,
    private readonly customers: CustomersRepository,
    private readonly identifiers: CustomerIdentifiersRepository,
  ) {}

  async add(organizationId: OrganizationId, body: AddIdentifierRequest): Promise<IdentifierResponse> {
    const check = checkIdentifier(body.type, body.country, body.value);
    if (!check.ok) {
      const reason =
        check.problem === 'format' ? CustomersError.IDENTIFIER_FORMAT : CustomersError.IDENTIFIER_CHECKSUM;
      throw customersError(
        reason,
        { type: body.type, country: body.country, scheme: check.scheme },
        { field: 'value', scheme: check.scheme },
      );
    }
    assertDateInRange('issueDate', body.issueDate, '1900-01-01', today());
    assertDateInRange('expiryDate', body.expiryDate, body.issueDate ?? '1900-01-01', '9999-12-31');
    return this.data.run(organizationId, async (tx) => {
      await lockCustomerForChange(this.customers, organizationId, body.customerId, tx);
      const added = await this.identifiers.add(
        organizationId,
        {
          customerId: body.customerId,
          type: body.type,
          country: body.country,
          value: check.value,
          scheme: check.scheme,
          issueDate: body.issueDate ?? null,
          expiryDate: body.expiryDate ?? null,
          issuedBy: body.issuedBy ?? null,
        },
        tx,
      );
      if (!added) {
        const holder = await this.identifiers.holder(
          organizationId,
          body.type,
          body.country,
          check.value,
          tx,
        );
        throw customersError(
          CustomersError.IDENTIFIER_TAKEN,
          { type: body.type, country: body.country },
          { existingCustomerId: holder?.customerId ?? null, existingIdentifierId: holder?.id ?? null },
        );
      }
      return identifierView(added);
    });
  }

  async remove(organizationId: OrganizationId, body: RemoveIdentifierRequest): Promise<IdentifierResponse> {
    return this.data.run(organizationId, async (tx) => {
      const found = await this.identifiers.byId(organizationId, body.identifierId, tx);
      if (!found)
        throw customersError(CustomersError.IDENTIFIER_NOT_FOUND, { identifierId: body.identifierId });
      await lockCustomerForChange(this.customers, organizationId, found.customerId, tx);
      await this.identifiers.remove(organizationId, found.id, tx);
      return identifierView(found);
    });
  }
}
