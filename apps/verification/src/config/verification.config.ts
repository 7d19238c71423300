import { DataServiceConfig } from '@platform/config';
import { service } from '@platform/registry';

export class VerificationConfig extends DataServiceConfig {
  override PORT = service('verification').port;
  override KAFKA_CLIENT_ID = service('verification').name;
}
