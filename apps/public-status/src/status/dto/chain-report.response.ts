import { ApiProperty } from '@nestjs/swagger';

export class BrokenChainResponse {
  @ApiProperty({ example: 'inc_k3v9q2m7x4ab' }) chain: string;
  @ApiProperty({ example: 'seq 2' }) at: string;
}

export class ChainReportResponse {
  @ApiProperty() checked: number;
  @ApiProperty({ type: [BrokenChainResponse] }) broken: BrokenChainResponse[];
}

export class ChainVerificationResponse {
  @ApiProperty() incidents: ChainReportResponse;
  @ApiProperty() uptime: ChainReportResponse;
}
