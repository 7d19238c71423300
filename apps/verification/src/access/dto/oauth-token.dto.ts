import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The token request's form fields (documentation only: the route parses the form itself). */
export class OAuthTokenRequest {
  @ApiProperty({ enum: ['client_credentials'] }) grant_type: string;
  @ApiPropertyOptional({ description: 'Your organization id (or HTTP Basic user name)', example: 'org-a' })
  client_id?: string;
  @ApiPropertyOptional({ description: 'An API key of the organization (or HTTP Basic password)' })
  client_secret?: string;
  @ApiPropertyOptional({
    description: "Space-separated permission areas, a subset of the key's; default: all of the key's",
    example: 'cases:read cases:write',
  })
  scope?: string;
}

export class OAuthTokenResponse {
  @ApiProperty({ example: 'vat_…' }) access_token: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type: string;
  @ApiProperty({ example: 600, description: 'Seconds until the token expires' }) expires_in: number;
  @ApiProperty({ example: 'cases:read cases:write' }) scope: string;
}

export class OAuthErrorResponse {
  @ApiProperty({
    enum: [
      'invalid_request',
      'invalid_client',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
    ],
  })
  error: string;
  @ApiProperty({ description: 'English, ASCII (RFC 6749 section 5.2)' }) error_description: string;
  @ApiPropertyOptional({ enum: ['IP_NOT_ALLOWED'] }) reason?: string;
}
