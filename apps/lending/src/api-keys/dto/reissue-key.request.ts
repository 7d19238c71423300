import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { IntField } from '@platform/envelope';
import { KEY_ID_EXAMPLE, KeyIdField } from './key-id';

/** Longest overlap of a reissue: 30 days. */
export const MAX_OVERLAP_SECONDS = 30 * 86_400;
export const DEFAULT_OVERLAP_SECONDS = 86_400;

export class ReissueKeyRequest {
  @ApiProperty({ example: KEY_ID_EXAMPLE, description: 'The key to replace' })
  @KeyIdField()
  keyId: string;

  @ApiPropertyOptional({
    default: DEFAULT_OVERLAP_SECONDS,
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    description: 'Seconds the replaced key keeps working (0: it stops at once)',
  })
  // Absent takes the default; null is refused like any other non-integer.
  @ValidateIf((_o: object, v: unknown) => v !== undefined)
  @IntField({ min: 0, max: MAX_OVERLAP_SECONDS })
  overlapSeconds?: number;
}
