import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { CHECK_STEPS } from '../checks/check-steps';

/** RunCheck: one step again (a step that ended in an error, while the application is under review). */
export class RunCheckRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;

  @ApiProperty({ enum: CHECK_STEPS })
  @IsIn(CHECK_STEPS)
  step: string;
}
