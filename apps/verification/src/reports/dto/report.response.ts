import { ApiProperty } from '@nestjs/swagger';

const STATUSES = ['current', 'superseded', 'revoked'];
const UUID_EXAMPLE = '6f1f2c3a-8d4e-4b7a-9c1d-2e3f4a5b6c7d';
const SHA_EXAMPLE = '3f0a5c4e9b2d1f8a7c6e5d4b3a291807f6e5d4c3b2a19080706050403020100f';
const JWS_EXAMPLE = 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il19..c2lnbmF0dXJl';

/** One entry of a case's report issuance log. */
export class ReportIssuanceResponse {
  @ApiProperty({ format: 'uuid', description: 'The report id printed in the PDF', example: UUID_EXAMPLE })
  reportId: string;
  @ApiProperty({ format: 'uuid', example: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90' }) caseId: string;
  @ApiProperty({ format: 'uuid', description: 'The summary the report shows' }) summaryId: string;
  @ApiProperty({ example: 1 }) summaryVersion: number;
  @ApiProperty({ example: 'ru' }) language: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T09:15:00.000Z' }) issuedAt: string;
  @ApiProperty({ enum: STATUSES, description: 'revoked wins over superseded' }) status: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The newer report of the case' })
  supersededBy: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) supersededAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revokedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) revocationReason: string | null;
  @ApiProperty({ description: 'Whether a share password opens the full report at the public address' })
  passwordProtected: boolean;
  @ApiProperty({ description: 'SHA-256 of the exact PDF bytes, hex', example: SHA_EXAMPLE }) sha256: string;
  @ApiProperty({
    description: 'Detached JWS (EdDSA, unencoded payload) over the PDF bytes',
    example: JWS_EXAMPLE,
  })
  signature: string;
  @ApiProperty({ description: 'The signing key (RFC 7638 thumbprint), in /verify/v1/jwks.json' }) kid: string;
  @ApiProperty({ description: 'The public verification address (the QR code)' }) verifyUrl: string;
}

/** What the public address tells about a report: no applicant data. */
export class PublicReportResponse {
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) reportId: string;
  @ApiProperty({ description: 'Always true: an unknown id answers 404 REPORT_NOT_FOUND' })
  issuedByPlatform: boolean;
  @ApiProperty({ format: 'date-time' }) issuedAt: string;
  @ApiProperty({ description: 'The organization the report was issued for', example: 'Alem Bank' })
  organizationName: string;
  @ApiProperty({ enum: STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) supersededBy: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) supersededAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revokedAt: string | null;
  @ApiProperty() passwordProtected: boolean;
  @ApiProperty({ example: SHA_EXAMPLE }) sha256: string;
  @ApiProperty({ example: JWS_EXAMPLE }) signature: string;
  @ApiProperty() kid: string;
  @ApiProperty({ description: 'The published keys' }) jwksUrl: string;
}

export class CheckReportResponse {
  @ApiProperty({ format: 'uuid' }) reportId: string;
  @ApiProperty({
    enum: ['unaltered', 'altered'],
    description: 'unaltered: the SHA-256 equals the issued one and, for a file, the signature verifies',
  })
  result: string;
  @ApiProperty({ description: 'SHA-256 of what was sent' }) sha256: string;
  @ApiProperty({ description: 'SHA-256 of the issued PDF' }) expectedSha256: string;
  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Whether the signature verifies over the file sent; null when only a hash was sent',
  })
  signatureValid: boolean | null;
  @ApiProperty({ enum: STATUSES }) status: string;
}

export class OpenedReportResponse {
  @ApiProperty({ type: PublicReportResponse }) report: PublicReportResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Everything the PDF shows: the case (reference, applicant, countries) and the summary (identity match, authenticity, flags with rule and evidence, recommendation)',
  })
  content: Record<string, unknown>;
  @ApiProperty({ description: 'The issued PDF, base64' }) pdfBase64: string;
}
