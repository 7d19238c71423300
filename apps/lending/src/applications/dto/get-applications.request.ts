import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageRequest } from '../../common/dto/page.request';
import { APPLICATION_STATUSES } from '../workflow/application-workflow';

/** Applications, filtered by status and customer; `total` counts every match. */
export class GetApplicationsRequest extends PageRequest {
  @ApiPropertyOptional({ enum: APPLICATION_STATUSES, description: 'Only applications in this status' })
  @IsOptional()
  @IsIn(APPLICATION_STATUSES)
  Status?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this customer's applications" })
  @IsOptional()
  @IsUUID()
  CustomerId?: string;
}

/** One application by its id. */
export class ApplicationIdQuery {
  @ApiProperty({ format: 'uuid', description: 'The application' })
  @IsUUID()
  ApplicationId: string;
}

/** A page of one application's records (status history). */
export class ApplicationPageRequest extends PageRequest {
  @ApiProperty({ format: 'uuid', description: 'The application' })
  @IsUUID()
  ApplicationId: string;
}

/** The external-call log, of one application or of the whole organization. */
export class GetExternalCallsRequest extends PageRequest {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this application's calls" })
  @IsOptional()
  @IsUUID()
  ApplicationId?: string;
}
