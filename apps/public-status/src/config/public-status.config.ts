import { DataServiceConfig } from '@platform/config';
import { service } from '@platform/registry';

export class PublicStatusConfig extends DataServiceConfig {
  override PORT = service('public-status').port;
  override KAFKA_CLIENT_ID = service('public-status').name;
}
