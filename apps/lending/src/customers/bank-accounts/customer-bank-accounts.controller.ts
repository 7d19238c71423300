import { LendingApi } from '../../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { CustomersError } from '../customers.errors';
import { AddBankAccountRequest, RemoveBankAccountRequest } from '../dto/bank-account.request';
import { CustomerIdQuery } from '../dto/customer.request';
import { BankAccountResponse } from '../dto/customer.response';
import { BankAccountsService } from './bank-accounts.service';

@LendingApi('Customers')
@Controller('Customers')
export class CustomerBankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  @Post('AddBankAccount')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({
    summary: 'Add a bank account: a checked IBAN, or a local account number with its bank code',
  })
  @ApiReasons(
    CustomersError.NOT_FOUND,
    CustomersError.CLOSED,
    CustomersError.IBAN_INVALID,
    CustomersError.BANK_ACCOUNT_INVALID,
    CustomersError.BANK_ACCOUNT_DUPLICATE,
  )
  @ApiEnvelope(BankAccountResponse, { status: 201 })
  add(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: AddBankAccountRequest) {
    return this.accounts.add(p.ownerId, body);
  }

  @Post('RemoveBankAccount')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: "Remove one of a customer's bank accounts; answers the removed one" })
  @ApiReasons(CustomersError.BANK_ACCOUNT_NOT_FOUND, CustomersError.CLOSED)
  @ApiEnvelope(BankAccountResponse)
  remove(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RemoveBankAccountRequest) {
    return this.accounts.remove(p.ownerId, body);
  }

  @Get('GetBankAccounts')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:read')
  @ApiOperation({ summary: "A customer's bank accounts, the primary one first" })
  @ApiReasons(CustomersError.NOT_FOUND)
  @ApiEnvelope(BankAccountResponse, { list: true })
  async list(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: CustomerIdQuery) {
    const { items, total } = await this.accounts.list(p.ownerId, q.CustomerId);
    return list(items, total);
  }
}
