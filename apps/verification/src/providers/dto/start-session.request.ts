import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PROVIDER_SESSION_KINDS, type ProviderSessionKind } from '../identity-provider';

export class StartSessionRequest {
  @ApiPropertyOptional({
    enum: PROVIDER_SESSION_KINDS,
    description: 'KYC (individual) or KYB (business); by default from the case: KYB for a Business applicant',
  })
  @IsOptional()
  @IsIn(PROVIDER_SESSION_KINDS)
  kind?: ProviderSessionKind;
}
