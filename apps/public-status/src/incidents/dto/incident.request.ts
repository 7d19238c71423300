import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, Matches } from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';
import { PUBLIC_CODE_PATTERN } from '../../status/public-code';
import {
  COMPONENT_STATES,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  type ComponentState,
  type IncidentImpact,
  type IncidentStatus,
} from '../../status/states';
import { OptionalField } from '../../status/optional-field';

/** `product/resource`, both slugs. */
export const COMPONENT_REF = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?\/[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const OPEN_STATUSES = INCIDENT_STATUSES.filter((s) => s !== 'resolved');

export class IncidentPath {
  @ApiProperty({ example: 'inc_k3v9q2m7x4ab', description: "The incident's public id" })
  @IsString()
  @Matches(PUBLIC_CODE_PATTERN)
  incident: string;
}

export class CreateIncidentRequest {
  @ApiProperty({ example: 'Elevated API errors' }) @IsString() @MinChars(1) @MaxChars(200) name: string;
  @ApiProperty({ enum: INCIDENT_IMPACTS, example: 'major' }) @IsIn(INCIDENT_IMPACTS) impact: IncidentImpact;
  @ApiPropertyOptional({ enum: OPEN_STATUSES, default: 'investigating' })
  @OptionalField()
  @IsIn(OPEN_STATUSES)
  status?: IncidentStatus;
  @ApiProperty({ example: 'We are investigating elevated error rates.' })
  @IsString()
  @MinChars(1)
  @MaxChars(5000)
  body: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['api/database'],
    description: 'Affected resources as `product/resource`',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(COMPONENT_REF, { each: true })
  components?: string[];
  @ApiPropertyOptional({ enum: COMPONENT_STATES, description: 'State to set on the affected resources' })
  @OptionalField()
  @IsIn(COMPONENT_STATES)
  componentState?: ComponentState;
}

export class IncidentUpdateRequest {
  @ApiProperty({ enum: INCIDENT_STATUSES, example: 'identified' })
  @IsIn(INCIDENT_STATUSES)
  status: IncidentStatus;
  @ApiProperty({ example: 'The cause is a failed database node.' })
  @IsString()
  @MinChars(1)
  @MaxChars(5000)
  body: string;
  @ApiPropertyOptional({ enum: COMPONENT_STATES, description: 'State to set on the affected resources' })
  @OptionalField()
  @IsIn(COMPONENT_STATES)
  componentState?: ComponentState;
}

export class ResolveIncidentRequest {
  @ApiPropertyOptional({ example: 'Fixed: the node was replaced.' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(5000)
  body?: string;
}
