import { ApiProperty } from '@nestjs/swagger';
import { APPLICATION_STATUSES } from '../workflow/application-workflow';
import { AllowedMoveResponse } from './application.response';

/** One status of the workflow, its name in the request's language and the moves out of it. */
export class ApplicationStatusResponse {
  @ApiProperty({ enum: APPLICATION_STATUSES, example: 'draft' }) code: string;
  @ApiProperty({ example: 'Draft' }) name: string;
  @ApiProperty({ description: 'No move leaves it' }) terminal: boolean;
  @ApiProperty({ type: [AllowedMoveResponse] }) transitions: AllowedMoveResponse[];
}
