import { DataServiceConfig } from '@platform/config';

export class VerificationConfig extends DataServiceConfig {
  override PORT = 3004;
  override DB_SCHEMA = 'verification';
  override KAFKA_CLIENT_ID = 'verification';
}
