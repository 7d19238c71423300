import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsInstant, MaxChars, QueryInt } from '@platform/envelope';

export class ListActivityRequest {
  @ApiPropertyOptional({ format: 'date-time', description: 'At or after this instant' })
  @IsOptional()
  @IsInstant()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Before this instant' })
  @IsOptional()
  @IsInstant()
  to?: string;

  @ApiPropertyOptional({ description: 'Only this actor (an API key id)', example: 'Ab3dEf6hIj9k' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  actor?: string;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Position of the first item, from 0' })
  @IsOptional()
  @QueryInt()
  offset?: number;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200, description: 'Page size' })
  @IsOptional()
  @QueryInt({ min: 1, max: 200 })
  limit?: number;
}

export class ActivityResponse {
  @ApiProperty({ example: '1042' }) id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'The API key id (never its secret)', example: 'Ab3dEf6hIj9k' }) actor: string;
  @ApiProperty({ enum: ['api-key', 'oauth'], description: 'How the key was presented' }) actorKind: string;
  @ApiProperty({ enum: ['POST', 'PUT', 'PATCH', 'DELETE'] }) method: string;
  @ApiProperty({ example: '/api/v1/verification-cases/:id/cancel', description: 'The route pattern' })
  route: string;
  @ApiProperty({ type: String, nullable: true, description: "The target's id (path id or created id)" })
  targetId: string | null;
  @ApiProperty({ example: 200, description: 'HTTP status answered' }) status: number;
  @ApiProperty({ type: String, nullable: true }) requestId: string | null;
}
