import { ApiProperty } from '@nestjs/swagger';
import { KEY_ID_EXAMPLE, KeyIdField } from './key-id';

export class RevokeKeyRequest {
  @ApiProperty({ example: KEY_ID_EXAMPLE, description: 'The key to stop' })
  @KeyIdField()
  keyId: string;
}
