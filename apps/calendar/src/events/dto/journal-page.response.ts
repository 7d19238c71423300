import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { JOURNAL_KINDS } from '../journal.entity';
import { BusyBlockResponse, EventResponse } from './event.response';

/** Documentation shapes of `GET /Calendar/journal` (built in journal.service.ts). */

export class JournalTombstoneResponse {
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The version it had; null where you see the event as a busy block',
  })
  version: number | null;
  @ApiProperty({ format: 'date-time' }) removed_at: string;
}

@ApiExtraModels(EventResponse, BusyBlockResponse)
export class JournalEntryResponse {
  @ApiProperty({ example: 1042, description: 'Position in the account’s journal: gap-free, increasing' })
  cursor: number;
  @ApiProperty({ enum: JOURNAL_KINDS, description: 'What the write did' }) kind: string;
  @ApiProperty({ format: 'date-time', description: 'When the write ran' }) at: string;
  @ApiProperty({ format: 'uuid', description: 'The event’s `id`' }) event_id: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'crm',
    description: 'Identity triple and version: null where you see the event as a busy block',
  })
  product_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'deal' }) entity_type: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'D-1042' }) entity_id: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 3, description: 'The version this write made' })
  version: number | null;
  @ApiProperty({
    nullable: true,
    oneOf: [{ $ref: getSchemaPath(EventResponse) }, { $ref: getSchemaPath(BusyBlockResponse) }],
    description:
      'The event as it is now (its version may be later than the entry’s), or a busy block; null when it is gone or no longer in your view',
  })
  event: EventResponse | BusyBlockResponse | null;
  @ApiProperty({ nullable: true, type: JournalTombstoneResponse, description: 'Set on `removed` entries' })
  tombstone: JournalTombstoneResponse | null;
}

export class JournalPageResponse {
  @ApiProperty({ type: [JournalEntryResponse], description: 'In cursor order' })
  items: JournalEntryResponse[];
  @ApiProperty({
    example: 1042,
    description:
      'Send as `after` for the next page: the last cursor this page covered, including entries you may not see; `after` itself when nothing followed',
  })
  next_cursor: number;
  @ApiProperty({ description: 'More entries follow `next_cursor` now (a page may be short, even empty)' })
  has_more: boolean;
}
