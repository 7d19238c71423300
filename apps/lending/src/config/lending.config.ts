import { DataServiceConfig } from '@platform/config';
import { service } from '@platform/registry';

export class LendingConfig extends DataServiceConfig {
  override PORT = service('lending').port;
  override KAFKA_CLIENT_ID = service('lending').name;
}
