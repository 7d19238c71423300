import { LendingApi } from '../../common/lending-api';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { LendingAccess, type PartnerPrincipal } from '../../tenancy/scopes';
import { CustomersError } from '../customers.errors';
import { IdentifierResponse } from '../dto/customer.response';
import { AddIdentifierRequest, RemoveIdentifierRequest } from '../dto/identifier.request';
import { IdentifiersService } from './identifiers.service';

@LendingApi('Customers')
@Controller('Customers')
export class CustomerIdentifiersController {
  constructor(private readonly identifiers: IdentifiersService) {}

  @Post('AddIdentifier')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({
    summary: 'Add a national id, passport or tax id, checked by the rules of its issuing country',
  })
  @ApiReasons(
    CustomersError.NOT_FOUND,
    CustomersError.CLOSED,
    CustomersError.IDENTIFIER_FORMAT,
    CustomersError.IDENTIFIER_CHECKSUM,
    CustomersError.IDENTIFIER_TAKEN,
    CustomersError.DATE_OUT_OF_RANGE,
  )
  @ApiEnvelope(IdentifierResponse, { status: 201 })
  add(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: AddIdentifierRequest) {
    return this.identifiers.add(p.ownerId, body);
  }

  @Post('RemoveIdentifier')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('customers:write')
  @ApiOperation({ summary: "Remove one of a customer's identifiers; answers the removed one" })
  @ApiReasons(CustomersError.IDENTIFIER_NOT_FOUND, CustomersError.CLOSED)
  @ApiEnvelope(IdentifierResponse)
  remove(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RemoveIdentifierRequest) {
    return this.identifiers.remove(p.ownerId, body);
  }
}
