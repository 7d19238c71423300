import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsISO4217CurrencyCode,
  IsString,
  Matches,
  ValidateIf,
} from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';
import { BANK_ACCOUNT_FORMATS, type BankAccountFormat } from '../bank-accounts/customer-bank-account.entity';
import { BIC_PATTERN } from '../bank-accounts/bank-account-rules';
import { Country, OptionalField, Text, UpperCase, Uuid } from './fields';

const isIban = (o: AddBankAccountRequest) => o.format === 'iban';
const isLocal = (o: AddBankAccountRequest) => o.format === 'local';

/** `iban`: the IBAN alone (its country is its first two letters); `local`: country, account and bank code. */
export class AddBankAccountRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() customerId: string;
  @ApiProperty({ enum: BANK_ACCOUNT_FORMATS }) @IsIn(BANK_ACCOUNT_FORMATS) format: BankAccountFormat;
  @ApiPropertyOptional({
    example: 'KZ86 125K ZT50 0410 0100',
    description: 'With `format` `iban`; spaces are ignored',
  })
  @ValidateIf(isIban)
  @IsDefined()
  @IsString()
  @MinChars(1)
  @MaxChars(50)
  iban?: string;
  @ApiPropertyOptional({ example: 'RU', description: 'With `format` `local`: ISO 3166-1 alpha-2' })
  @ValidateIf(isLocal)
  @IsDefined()
  @Country()
  country?: string;
  @ApiPropertyOptional({ example: '40702810900000000001', description: 'With `format` `local`' })
  @ValidateIf(isLocal)
  @IsDefined()
  @IsString()
  @MinChars(1)
  @MaxChars(50)
  accountNumber?: string;
  @ApiPropertyOptional({
    example: '044525225',
    description:
      'With `format` `local`: BIK in Russia, MFO in Uzbekistan, ABA routing number in the United States',
  })
  @ValidateIf(isLocal)
  @IsDefined()
  @IsString()
  @MinChars(1)
  @MaxChars(20)
  bankCode?: string;
  @ApiPropertyOptional({ example: 'CASPKZKA', description: 'SWIFT BIC, 8 or 11 characters' })
  @OptionalField()
  @UpperCase()
  @IsString()
  @Matches(BIC_PATTERN)
  bic?: string;
  @ApiPropertyOptional({ example: 'Kaspi Bank' }) @OptionalField() @Text(200) bankName?: string;
  @ApiProperty({ example: 'Aigerim Nurlanova' }) @Text(200) holderName: string;
  @ApiProperty({ example: 'KZT', description: 'ISO 4217' })
  @UpperCase()
  @IsString()
  @IsISO4217CurrencyCode()
  currency: string;
  @ApiPropertyOptional({
    default: false,
    description: 'Makes it the primary account; the previous primary one stops being primary',
  })
  @OptionalField()
  @IsBoolean()
  primary?: boolean;
}

export class RemoveBankAccountRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() bankAccountId: string;
}
