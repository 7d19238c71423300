import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches } from 'class-validator';
import { MaxChars } from '@platform/envelope';

export class CreateAppPasswordRequest {
  @ApiProperty({
    example: 'iPhone',
    maxLength: 64,
    description: 'What you call the device or client, to tell its app password apart later',
  })
  @IsString()
  @IsNotEmpty()
  @Matches(/\S/, { message: 'label must not be blank' })
  @MaxChars(64)
  label: string;
}
