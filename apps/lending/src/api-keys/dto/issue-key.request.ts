import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString } from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';
import { LENDING_SCOPES, type LendingScope } from '../../tenancy/scopes';

export class IssueKeyRequest {
  @ApiProperty({ example: 'Core banking sync', description: 'What the key is for, to tell keys apart' })
  @IsString()
  @MinChars(1)
  @MaxChars(100)
  label: string;

  @ApiProperty({
    enum: LENDING_SCOPES,
    isArray: true,
    example: ['applications:read', 'customers:read'],
    description: 'Scopes of the new key: only scopes the calling key holds itself',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LENDING_SCOPES.length)
  @ArrayUnique()
  @IsIn(LENDING_SCOPES, { each: true })
  scopes: LendingScope[];
}
