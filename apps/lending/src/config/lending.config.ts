import { DataServiceConfig } from '@platform/config';

export class LendingConfig extends DataServiceConfig {
  override PORT = 3003;
  override DB_SCHEMA = 'lending';
  override KAFKA_CLIENT_ID = 'lending';
}
