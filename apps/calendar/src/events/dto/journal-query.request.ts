import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { QueryInt } from '@platform/envelope';

/** The journal's page limits (decision 0042). */
export const JOURNAL_LIMITS = { defaultLimit: 100, maxLimit: 500 } as const;

export class JournalQueryRequest {
  @ApiPropertyOptional({
    default: 0,
    minimum: 0,
    example: 1041,
    description:
      'Entries after this cursor: the `next_cursor` of the previous page, a write’s `X-Journal-Cursor`, or 0 (the default) for the whole journal',
  })
  @IsOptional()
  @QueryInt({ max: Number.MAX_SAFE_INTEGER })
  after?: number;

  @ApiPropertyOptional({
    default: JOURNAL_LIMITS.defaultLimit,
    minimum: 1,
    maximum: JOURNAL_LIMITS.maxLimit,
    description: 'Page size',
  })
  @IsOptional()
  @QueryInt({ min: 1, max: JOURNAL_LIMITS.maxLimit })
  limit?: number;
}
