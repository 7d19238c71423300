import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IntField, MaxChars } from '@platform/envelope';
import { EventIdentityDto } from '../../events/dto/upsert-event.request';
import { EVENT_LIMITS as L } from '../../events/event-limits';
import {
  ANSWERS,
  ATTENDEE_KINDS,
  ATTENDEE_ROLES,
  type Answer,
  type AttendeeKind,
  type AttendeeRole,
} from '../event-attendee.entity';

/** Bounds of invitations (decision 0017). */
export const ATTENDEE_LIMITS = { perRequest: 100, perEvent: 500, email: 254, comment: 500 } as const;

export class InviteeDto {
  @ApiProperty({ enum: ATTENDEE_KINDS, example: 'email' })
  @IsIn(ATTENDEE_KINDS)
  kind: AttendeeKind;

  @ApiPropertyOptional({ description: 'Person id (kind person)', example: 'person-18' })
  @ValidateIf((o: InviteeDto) => o.kind === 'person' || o.id !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.personId)
  id?: string;

  @ApiPropertyOptional({ description: 'Email address (kind email)', example: 'guest@example.com' })
  @ValidateIf((o: InviteeDto) => o.kind === 'email' || o.email !== undefined)
  @IsString()
  @MaxChars(ATTENDEE_LIMITS.email)
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ enum: ATTENDEE_ROLES, default: 'REQ-PARTICIPANT' })
  @IsOptional()
  @IsIn(ATTENDEE_ROLES)
  role?: AttendeeRole;
}

export class InviteRequest extends EventIdentityDto {
  @ApiPropertyOptional({
    description: 'When sent, the invitation happens only at this version (409 otherwise)',
  })
  @IsOptional()
  @IntField({ min: 1 })
  version?: number;

  @ApiProperty({ type: [InviteeDto], maxItems: ATTENDEE_LIMITS.perRequest })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ATTENDEE_LIMITS.perRequest)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => InviteeDto)
  attendees: InviteeDto[];
}

export class RsvpRequest {
  @ApiPropertyOptional({
    description: 'The `rsvp_token` of an external guest; absent with a PlatformSession',
  })
  // Absent is allowed; null is not (it would read as a token to check): validated as a string.
  @ValidateIf((_o: RsvpRequest, v: unknown) => v !== undefined)
  @IsString()
  @MaxChars(2048)
  token?: string;

  @ApiPropertyOptional({ description: 'With a PlatformSession: the event as a triple (instead of a token)' })
  @ValidateIf((_o: RsvpRequest, v: unknown) => v !== undefined)
  @IsString()
  @MaxChars(L.productId)
  product_id?: string;

  @ApiPropertyOptional({ example: 'deal' })
  @ValidateIf((o: RsvpRequest) => o.token === undefined || o.entity_type !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityType)
  entity_type?: string;

  @ApiPropertyOptional({ example: 'D-1042' })
  @ValidateIf((o: RsvpRequest) => o.token === undefined || o.entity_id !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityId)
  entity_id?: string;

  @ApiProperty({ enum: ANSWERS, description: 'iCalendar PARTSTAT' })
  @IsIn(ANSWERS)
  answer: Answer;

  @ApiPropertyOptional({ maxLength: ATTENDEE_LIMITS.comment })
  @ValidateIf((_o: RsvpRequest, v: unknown) => v !== undefined)
  @IsString()
  @MaxChars(ATTENDEE_LIMITS.comment)
  comment?: string;
}
