export { loadConfig, describeConfig, Sensitive, ConfigError } from './load-config';
export { HttpAppConfig, KafkaClientConfig, DataServiceConfig } from './service.config';
export { TypedConfigModule } from './typed-config.module';
export { Parses } from './parses';
