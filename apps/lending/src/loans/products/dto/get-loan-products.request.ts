import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO4217CurrencyCode, IsOptional, IsString, IsUUID } from 'class-validator';
import { PageRequest } from '../../../common/dto/page.request';

/** Products, newest first, optionally only active ones or one currency's. */
export class GetLoanProductsRequest extends PageRequest {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Only active (true) or inactive (false) products',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  Active?: string;

  @ApiPropertyOptional({ example: 'KZT', description: "Only this currency's products" })
  @IsOptional()
  @IsString()
  @IsISO4217CurrencyCode()
  Currency?: string;
}

/** One product by its id. */
export class LoanProductIdQuery {
  @ApiProperty({ format: 'uuid', description: 'The product' })
  @IsUUID()
  ProductId: string;
}
