import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
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

/** A PEM file's text; fails at start, naming the setting, when it cannot be read or holds no such block. */
function readPem(setting: string, path: string, block: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`${setting}: cannot read ${path} (${reason})`, { cause: err });
  }
  if (!new RegExp(`-----BEGIN [A-Z ]*${block}-----`).test(text))
    throw new Error(`${setting}: ${path} holds no PEM ${block}`);
  return text;
}

/**
 * TLS towards the brokers. `KAFKA_SSL_CA_FILE` (a PEM bundle, e.g. Strimzi's `<cluster>-cluster-ca-cert`
 * `ca.crt`) replaces Node's public roots, which never hold a cluster's own CA; the broker's name is still
 * checked against its certificate. A client certificate and key (a Strimzi KafkaUser with `tls`
 * authentication) are sent when both files are set. Files are read when a client is made, that is at
 * start: a renewed CA needs a restart (docs/runbooks/deploy.md).
 */
function ssl(cfg: KafkaClientConfig): ConnectionOptions | boolean {
  if (cfg.KAFKA_SSL !== 'true') return false;
  const options: ConnectionOptions = {};
  if (cfg.KAFKA_SSL_CA_FILE)
    options.ca = [readPem('KAFKA_SSL_CA_FILE', cfg.KAFKA_SSL_CA_FILE, 'CERTIFICATE')];
  if (cfg.KAFKA_SSL_CERT_FILE && cfg.KAFKA_SSL_KEY_FILE) {
    options.cert = readPem('KAFKA_SSL_CERT_FILE', cfg.KAFKA_SSL_CERT_FILE, 'CERTIFICATE');
    options.key = readPem('KAFKA_SSL_KEY_FILE', cfg.KAFKA_SSL_KEY_FILE, 'PRIVATE KEY');
  }
  // Nothing set: kafkajs's `ssl: true`, Node's default trust (a broker with a public certificate).
  return Object.keys(options).length ? options : true;
}

/**
 * Broker answers that are the group protocol's normal signals, not failures: kafkajs's connection logs
 * every error answer at ERROR, then handles these itself (it rejoins the group, or the request was
 * answered after its connection was closed). Printed at each rebalance, they filled runs and logs with
 * ERROR lines that nobody needs to act on.
 */
const ROUTINE_ANSWERS = [
  'The group is rebalancing, so a rejoin is needed',
  'The coordinator is not aware of this member',
  'Specified group generation id is not valid',
  "The coordinator is loading and hence can't process requests",
];

/** The level a kafkajs entry is printed at: a routine group answer is DEBUG; everything else as given. */
export function kafkaLogLevel(entry: LogEntry): logLevel {
  const { message, error } = entry.log as { message?: string; error?: unknown };
  if (
    entry.level === logLevel.ERROR &&
    message?.startsWith('Response ') &&
    typeof error === 'string' &&
    ROUTINE_ANSWERS.includes(error)
  )
    return logLevel.DEBUG;
  return entry.level;
}

/** kafkajs's console logger (one JSON line per entry), with `kafkaLogLevel` deciding the level. */
const kafkaLogCreator =
  (threshold: logLevel) =>
  () =>
  (entry: LogEntry): void => {
    const level = kafkaLogLevel(entry);
    if (level > threshold || level === logLevel.NOTHING) return;
    const prefix = entry.namespace ? `[${entry.namespace}] ` : '';
    const line = JSON.stringify({
      level: level === entry.level ? entry.label : 'DEBUG',
      ...entry.log,
      message: `${prefix}${entry.log.message}`,
    });
    // kafkajs's own logger writes to the console too (tests and collectors read it there).
    /* eslint-disable no-console */
    const print =
      level === logLevel.ERROR ? console.error : level === logLevel.WARN ? console.warn : console.log;
    /* eslint-enable no-console */
    print(line);
  };

/**
 * The kafkajs client settings every app uses. Nothing here knows whether the brokers are Apache Kafka
 * or the embedded mock: no idempotent producer and no admin topic creation on the request path (the
 * mock lacks a controller; real Kafka doesn't need either for at-least-once plus inbox dedupe).
 */
export function kafkaClientOptions(cfg: KafkaClientConfig, clientId = cfg.KAFKA_CLIENT_ID): KafkaConfig {
  return {
    clientId,
    brokers: cfg.KAFKA_BROKERS.split(','),
    ssl: ssl(cfg),
    sasl: sasl(cfg),
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(logLevel.WARN),
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
