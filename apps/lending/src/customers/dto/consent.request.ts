import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsIP, IsOptional, IsString, Matches } from 'class-validator';
import { MaxChars } from '@platform/envelope';
import {
  CONSENT_CHANNELS,
  CONSENT_TYPES,
  type ConsentChannel,
  type ConsentType,
} from '../consents/consent-rules';
import { OptionalField, Text, Uuid } from './fields';
import { CustomerPageQuery } from './customer.request';

/** How the customer acted: the channel and, where there is one, the evidence. */
class ConsentActRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() customerId: string;
  @ApiProperty({ enum: CONSENT_TYPES }) @IsIn(CONSENT_TYPES) type: ConsentType;
  @ApiProperty({ enum: CONSENT_CHANNELS }) @IsIn(CONSENT_CHANNELS) channel: ConsentChannel;
  @ApiPropertyOptional({ example: '203.0.113.7', description: "The customer's IP address (IPv4 or IPv6)" })
  @OptionalField()
  @IsString()
  @IsIP()
  ipAddress?: string;
  @ApiPropertyOptional({ example: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)' })
  @OptionalField()
  @Text(1000)
  userAgent?: string;
  @ApiPropertyOptional({
    example: 'otp-session:8f3a21',
    description: 'Your reference to the proof: a signed form, an OTP session, a call recording',
  })
  @OptionalField()
  @Text(500)
  evidence?: string;
}

export class GiveConsentRequest extends ConsentActRequest {
  @ApiProperty({ example: '2026-01', description: 'Version of the consent text the customer accepted' })
  @IsString()
  @MaxChars(50)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
  textVersion: string;
}

export class WithdrawConsentRequest extends ConsentActRequest {}

export class ConsentHistoryQuery extends CustomerPageQuery {
  @ApiPropertyOptional({ enum: CONSENT_TYPES, description: 'Only events of this consent type' })
  @IsOptional()
  @IsIn(CONSENT_TYPES)
  Type?: ConsentType;
}
