import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { Transport, type KafkaOptions } from '@nestjs/microservices';
import type { KafkaClientConfig } from '@platform/config';

function sasl(cfg: KafkaClientConfig): SASLOptions | undefined {
  if (!cfg.KAFKA_SASL_MECHANISM) return undefined;
  return {
    mechanism: cfg.KAFKA_SASL_MECHANISM as 'plain',
    username: cfg.KAFKA_SASL_USERNAME,
    password: cfg.KAFKA_SASL_PASSWORD,
  };
}

/**
 * The kafkajs client settings every app uses. Nothing here knows whether the brokers are Apache Kafka
 * or the embedded mock: no idempotent producer and no admin topic creation on the request path (the
 * mock lacks a controller; real Kafka doesn't need either for at-least-once plus inbox dedupe).
 */
export function kafkaClientOptions(cfg: KafkaClientConfig, clientId = cfg.KAFKA_CLIENT_ID): KafkaConfig {
  return {
    clientId,
    brokers: cfg.KAFKA_BROKERS.split(','),
    ssl: cfg.KAFKA_SSL === 'true',
    sasl: sasl(cfg),
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
  };
}

export function createKafka(cfg: KafkaClientConfig, clientId?: string): Kafka {
  return new Kafka(kafkaClientOptions(cfg, clientId));
}

/** Options for a Nest Kafka microservice (consumer side) with the inbox pattern in the handlers. */
export function kafkaMicroserviceOptions(cfg: KafkaClientConfig, groupId: string): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: kafkaClientOptions(cfg, `${cfg.KAFKA_CLIENT_ID}-consumer`),
      consumer: {
        groupId,
        maxWaitTimeInMs: cfg.KAFKA_CONSUMER_MAX_WAIT_MS,
        sessionTimeout: cfg.KAFKA_SESSION_TIMEOUT_MS,
        heartbeatInterval: Math.max(500, Math.floor(cfg.KAFKA_SESSION_TIMEOUT_MS / 5)),
        allowAutoTopicCreation: true,
      },
      subscribe: { fromBeginning: true },
      postfixId: '',
      producerOnlyMode: false,
    },
  };
}
