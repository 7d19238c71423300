import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { IsCalendarDate, MaxChars, MinChars } from '@platform/envelope';
import { IDENTIFIER_TYPES, type IdentifierType } from '../identifiers/identifier-rules';
import { Country, OptionalField, Text, Uuid } from './fields';

export class AddIdentifierRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() customerId: string;
  @ApiProperty({ enum: IDENTIFIER_TYPES }) @IsIn(IDENTIFIER_TYPES) type: IdentifierType;
  @ApiProperty({ example: 'KZ', description: 'Issuing country, ISO 3166-1 alpha-2: it selects the rules' })
  @Country()
  country: string;
  @ApiProperty({
    example: '900101300007',
    description: 'As printed: spaces, hyphens, dots and slashes are ignored, letters may be lower case',
  })
  @IsString()
  @MinChars(1)
  @MaxChars(40)
  value: string;
  @ApiPropertyOptional({ format: 'date', description: 'Not after today' })
  @OptionalField()
  @IsCalendarDate()
  issueDate?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Not before the issue date' })
  @OptionalField()
  @IsCalendarDate()
  expiryDate?: string;
  @ApiPropertyOptional({ example: 'Ministry of Internal Affairs' })
  @OptionalField()
  @Text(200)
  issuedBy?: string;
}

export class RemoveIdentifierRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() identifierId: string;
}
