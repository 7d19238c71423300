import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import { customerOrNotFound, lockCustomerForChange } from '../customer-lock';
import { bankAccountView } from '../customer-views';
import { CustomersError, customersError } from '../customers.errors';
import { CustomersRepository } from '../customers.repository';
import type { AddBankAccountRequest, RemoveBankAccountRequest } from '../dto/bank-account.request';
import type { BankAccountResponse } from '../dto/customer.response';
import { checkIban, checkLocalAccount } from './bank-account-rules';
import { CustomerBankAccountsRepository, type BankAccountFields } from './customer-bank-accounts.repository';

/** A customer's bank accounts for disbursements and repayments. */
@Injectable()
export class BankAccountsService {
  constructor(
    private readonly data: TenantData,
    private readonly customers: CustomersRepository,
    private readonly accounts: CustomerBankAccountsRepository,
  ) {}

  async add(organizationId: OrganizationId, body: AddBankAccountRequest): Promise<BankAccountResponse> {
    const number = this.validated(body);
    const primary = body.primary ?? false;
    return this.data.run(organizationId, async (tx) => {
      await lockCustomerForChange(this.customers, organizationId, body.customerId, tx);
      const added = await this.accounts.add(organizationId, { ...number, isPrimary: false }, tx);
      if (!added) throw customersError(CustomersError.BANK_ACCOUNT_DUPLICATE, {}, { field: 'accountNumber' });
      if (primary) {
        await this.accounts.clearPrimary(organizationId, body.customerId, tx);
        await this.accounts.setPrimary(organizationId, added.id, tx);
      }
      return bankAccountView((await this.accounts.byId(organizationId, added.id, tx)) ?? added);
    });
  }

  async remove(organizationId: OrganizationId, body: RemoveBankAccountRequest): Promise<BankAccountResponse> {
    return this.data.run(organizationId, async (tx) => {
      const found = await this.accounts.byId(organizationId, body.bankAccountId, tx);
      if (!found)
        throw customersError(CustomersError.BANK_ACCOUNT_NOT_FOUND, { bankAccountId: body.bankAccountId });
      await lockCustomerForChange(this.customers, organizationId, found.customerId, tx);
      await this.accounts.remove(organizationId, found.id, tx);
      return bankAccountView(found);
    });
  }

  async list(organizationId: OrganizationId, customerId: string): Promise<ListValue<BankAccountResponse>> {
    const rows = await this.data.run(organizationId, async (tx) => {
      await customerOrNotFound(this.customers, organizationId, customerId, tx);
      return this.accounts.ofCustomer(organizationId, customerId, tx);
    });
    return { items: rows.map(bankAccountView), total: rows.length };
  }

  /** The account as stored, or the coded reason it is refused. */
  private validated(body: AddBankAccountRequest): Omit<BankAccountFields, 'isPrimary'> {
    const common = {
      customerId: body.customerId,
      bic: body.bic ?? null,
      bankName: body.bankName ?? null,
      currency: body.currency,
      holderName: body.holderName,
    };
    if (body.format === 'iban') {
      const iban = checkIban(body.iban as string);
      if (!iban.ok)
        throw customersError(
          CustomersError.IBAN_INVALID,
          {},
          {
            field: 'iban',
            check: iban.problem,
            ...(iban.expectedLength ? { expectedLength: iban.expectedLength } : {}),
          },
        );
      return {
        ...common,
        format: 'iban',
        iban: iban.iban,
        accountNumber: null,
        bankCode: null,
        country: iban.country,
        scheme: 'IBAN',
        accountKey: iban.iban,
      };
    }
    const country = body.country as string;
    const local = checkLocalAccount(country, body.accountNumber as string, body.bankCode as string);
    if (!local.ok)
      throw customersError(
        CustomersError.BANK_ACCOUNT_INVALID,
        { scheme: local.scheme, country },
        { field: 'accountNumber', scheme: local.scheme, check: local.problem },
      );
    return {
      ...common,
      format: 'local',
      iban: null,
      accountNumber: local.accountNumber,
      bankCode: local.bankCode,
      country,
      scheme: local.scheme,
      accountKey: `${local.bankCode}/${local.accountNumber}`,
    };
  }
}
