import { ApiProperty } from '@nestjs/swagger';
import { PageRequest } from '../../common/dto/page.request';
import { KEY_ID_EXAMPLE, KeyIdField } from './key-id';

/** The organization's keys, a page at a time (the spec's Offset and Count). */
export class GetKeysRequest extends PageRequest {}

export class GetKeyRequestsRequest extends GetKeysRequest {
  @ApiProperty({ example: KEY_ID_EXAMPLE, description: 'The key whose calls to list' })
  @KeyIdField()
  KeyId: string;
}
