import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsString,
} from 'class-validator';
import { MaxChars } from '@platform/envelope';
import { PERMISSIONS, type Permission } from '../permissions';

export class GrantRequest {
  @ApiProperty({ example: 'crm', description: 'The integration (product) receiving or losing access' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(64)
  product_id: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true, example: ['Push', 'FreeBusy'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true })
  permissions: Permission[];
}

export class SetTeamMembersRequest {
  @ApiProperty({ example: 'sales' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(64)
  team_id: string;

  @ApiProperty({ type: [String], example: ['person-1', 'person-2'], description: 'Replaces the membership' })
  @IsArray()
  @ArrayMaxSize(1000)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxChars(128, { each: true })
  members: string[];
}
