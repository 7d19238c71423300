import { DataServiceConfig } from '@platform/config';

export class PublicStatusConfig extends DataServiceConfig {
  override PORT = 3002;
  override DB_SCHEMA = 'public_status';
  override KAFKA_CLIENT_ID = 'public-status';
}
