import { ApiProperty } from '@nestjs/swagger';
import { COMPONENT_STATES } from '../../status/states';
import { CHECK_FAILURE_STATES, CHECK_METHODS } from './check.request';

export class CheckResponse {
  @ApiProperty({ example: 'chk_p4k2x9v3q7ab' }) id: string;
  @ApiProperty({ example: 'api/database' }) component: string;
  @ApiProperty({ example: 'Health endpoint' }) name: string;
  @ApiProperty({ example: 'https://api.example.com/health' }) url: string;
  @ApiProperty({ enum: CHECK_METHODS }) method: string;
  @ApiProperty({ example: 60 }) intervalSeconds: number;
  @ApiProperty({ example: 10000 }) timeoutMs: number;
  @ApiProperty({ example: 200 }) expectStatusMin: number;
  @ApiProperty({ example: 299 }) expectStatusMax: number;
  @ApiProperty({ nullable: true, type: String }) bodyContains: string | null;
  @ApiProperty({ example: 3 }) failureThreshold: number;
  @ApiProperty({ example: 3 }) recoveryThreshold: number;
  @ApiProperty({ enum: CHECK_FAILURE_STATES }) failureState: string;
  @ApiProperty({ nullable: true, type: Number }) slowMs: number | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({
    enum: ['unknown', 'up', 'slow', 'down'],
    description: 'The settled status: an outcome held for its threshold of consecutive runs',
  })
  status: string;
  @ApiProperty({
    enum: COMPONENT_STATES,
    nullable: true,
    description: 'The state it asks for (null: not settled yet)',
  })
  wants: string | null;
  @ApiProperty({ format: 'date-time' }) nextRunAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastRunAt: string | null;
}

export class CheckResultResponse {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ enum: ['up', 'slow', 'down'] }) outcome: string;
  @ApiProperty({ nullable: true, type: Number, example: 200 }) statusCode: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'timeout after 10000 ms' }) error: string | null;
  @ApiProperty({ example: 42 }) latencyMs: number;
}
