import { ApiProperty } from '@nestjs/swagger';
import { APPLICATION_ACTIONS, APPLICATION_STATUSES } from '../workflow/application-workflow';

/** One move in an application's status history (oldest first). */
export class StatusChangeResponse {
  @ApiProperty({ example: 2, description: 'Position in the history, from 1' }) seq: number;
  @ApiProperty({ enum: APPLICATION_STATUSES, type: String, nullable: true, description: 'Null on creation' })
  fromStatus: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Draft' }) fromStatusName: string | null;
  @ApiProperty({ enum: APPLICATION_STATUSES, example: 'submitted' }) toStatus: string;
  @ApiProperty({ example: 'Submitted' }) toStatusName: string;
  @ApiProperty({ enum: APPLICATION_ACTIONS, example: 'SubmitApplication' }) action: string;
  @ApiProperty({ enum: ['key', 'rules'], description: 'A caller, or the decision rules' }) actor: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key that made the move (for the rules: the key whose RunChecks led to it)',
  })
  keyId: string | null;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}
