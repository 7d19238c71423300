import { ApiProperty } from '@nestjs/swagger';
import { LENDING_SCOPES } from '../../tenancy/scopes';
import { KEY_ID_EXAMPLE } from './key-id';

const TOKEN_EXAMPLE = `lnd_${KEY_ID_EXAMPLE}_${'x'.repeat(40)}`;

/** A key as lists show it: never its secret or hash. */
export class KeyResponse {
  @ApiProperty({ example: KEY_ID_EXAMPLE, description: 'Public id: the part after `lnd_` in the key' })
  keyId: string;
  @ApiProperty({ example: 'Core banking sync' }) label: string;
  @ApiProperty({ enum: LENDING_SCOPES, isArray: true, example: ['applications:read'] }) scopes: string[];
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Set when the key was reissued: it stops working at this time',
  })
  expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Last call with the key, to about a minute (null: never used)',
  })
  lastUsedAt: string | null;
}

/** A new key: `apiKey` is the secret, shown in this answer only. */
export class IssuedKeyResponse {
  @ApiProperty({
    example: TOKEN_EXAMPLE,
    description: 'The key to send as X-Api-Key: shown once, never again',
  })
  apiKey: string;
  @ApiProperty({ example: KEY_ID_EXAMPLE }) keyId: string;
  @ApiProperty({ example: 'Core banking sync' }) label: string;
  @ApiProperty({ enum: LENDING_SCOPES, isArray: true, example: ['applications:read'] }) scopes: string[];
}

/** The replacement key, and when the replaced one stops. */
export class ReissuedKeyResponse extends IssuedKeyResponse {
  @ApiProperty({ example: 'P7rT2wQx9LbN' }) replacedKeyId: string;
  @ApiProperty({ format: 'date-time', description: 'The replaced key works until then' })
  replacedKeyExpiresAt: string;
}

/** One call made with a key. */
export class KeyRequestResponse {
  @ApiProperty({ format: 'date-time', description: 'When the answer was sent' }) at: string;
  @ApiProperty({ example: 'GET' }) method: string;
  @ApiProperty({ example: '/Applications/GetApplications', description: 'Without the query string' })
  path: string;
  @ApiProperty({ example: 200, description: 'HTTP status of the answer' }) status: number;
  @ApiProperty({ example: 12 }) durationMs: number;
  @ApiProperty({ example: 'b1f0c6e2-3d4a-4f5b-8c9d-0e1f2a3b4c5d' }) requestId: string;
}
