import { existsSync } from 'node:fs';

/**
 * librdkafka's mock cluster: a real Kafka wire-protocol broker that runs on native threads inside this
 * process. Used by `npm start` (embedded default) and by the test harness; services never see it, they
 * only get `KAFKA_BROKERS`.
 *
 * Handles are declared as `void *` on purpose: named koffi opaque types throw "Duplicate type name" when
 * Jest loads this module twice in one worker.
 */
type Fn = (...args: unknown[]) => unknown;

interface MockApi {
  confNew: Fn;
  confSet: Fn;
  kafkaNew: Fn;
  clusterNew: Fn;
  bootstraps: Fn;
  topicCreate: Fn;
  brokerDown: Fn;
  brokerUp: Fn;
  brokerRtt: Fn;
  pushErrors: Fn;
  clearErrors: Fn;
  clusterDestroy: Fn;
  kafkaDestroy: Fn;
}

const LIBRARY_CANDIDATES = [
  process.env.LIBRDKAFKA_PATH,
  '/usr/lib/x86_64-linux-gnu/librdkafka.so.1',
  '/lib/x86_64-linux-gnu/librdkafka.so.1',
  '/usr/lib/aarch64-linux-gnu/librdkafka.so.1',
  'librdkafka.so.1',
].filter((p): p is string => Boolean(p));

let api: MockApi | undefined;

function loadApi(): MockApi {
  if (api) return api;
  // Loaded lazily so that importing this module never requires the native library.

  const koffi = require('koffi') as typeof import('koffi');
  const path = LIBRARY_CANDIDATES.find((p) => !p.startsWith('/') || existsSync(p));
  if (!path) {
    throw new Error(
      'librdkafka.so.1 not found: install the Debian package librdkafka1 (apt-get install -y librdkafka1) ' +
        'or set LIBRDKAFKA_PATH, or point KAFKA_BROKERS at a real Kafka cluster.',
    );
  }
  const lib = koffi.load(path);
  api = {
    confNew: lib.func('void *rd_kafka_conf_new()'),
    confSet: lib.func(
      'int rd_kafka_conf_set(void *conf, const char *name, const char *value, char *errstr, size_t len)',
    ),
    kafkaNew: lib.func('void *rd_kafka_new(int type, void *conf, char *errstr, size_t len)'),
    clusterNew: lib.func('void *rd_kafka_mock_cluster_new(void *rk, int brokers)'),
    bootstraps: lib.func('const char *rd_kafka_mock_cluster_bootstraps(void *m)'),
    topicCreate: lib.func(
      'int rd_kafka_mock_topic_create(void *m, const char *topic, int partitions, int rf)',
    ),
    brokerDown: lib.func('int rd_kafka_mock_broker_set_down(void *m, int32_t id)'),
    brokerUp: lib.func('int rd_kafka_mock_broker_set_up(void *m, int32_t id)'),
    brokerRtt: lib.func('int rd_kafka_mock_broker_set_rtt(void *m, int32_t id, int rtt)'),
    pushErrors: lib.func(
      'void rd_kafka_mock_push_request_errors_array(void *m, int16_t apiKey, size_t cnt, const int *errors)',
    ),
    clearErrors: lib.func('void rd_kafka_mock_clear_request_errors(void *m, int16_t apiKey)'),
    clusterDestroy: lib.func('void rd_kafka_mock_cluster_destroy(void *m)'),
    kafkaDestroy: lib.func('void rd_kafka_destroy(void *rk)'),
  };
  return api;
}

/** Kafka protocol API keys and error codes used by fault tests. */
export const KafkaApiKey = { Produce: 0, Fetch: 1, Metadata: 3 } as const;
export const KafkaErrorCode = {
  NOT_LEADER_FOR_PARTITION: 6,
  REQUEST_TIMED_OUT: 7,
  NOT_ENOUGH_REPLICAS: 19,
} as const;

export class KafkaMockCluster {
  private destroyed = false;

  private constructor(
    private readonly handle: unknown,
    private readonly rk: unknown,
    readonly brokers: string,
    readonly brokerCount: number,
  ) {}

  static start(brokerCount = 1): KafkaMockCluster {
    const a = loadApi();
    const errbuf = Buffer.alloc(512);
    const conf = a.confNew();
    // The hosting handle never talks to the cluster itself; keep its logging quiet.
    a.confSet(conf, 'log_level', '3', errbuf, errbuf.length);
    const rk = a.kafkaNew(0, conf, errbuf, errbuf.length);
    if (!rk) throw new Error(`rd_kafka_new failed: ${errbuf.toString('utf8').replace(/\0.*$/s, '')}`);
    const handle = a.clusterNew(rk, brokerCount);
    if (!handle) throw new Error('rd_kafka_mock_cluster_new failed');
    const brokers = String(a.bootstraps(handle));
    return new KafkaMockCluster(handle, rk, brokers, brokerCount);
  }

  createTopic(topic: string, partitions = 3): void {
    const rc = loadApi().topicCreate(this.handle, topic, partitions, 1) as number;
    // 36 = TOPIC_ALREADY_EXISTS: creating twice is harmless.
    if (rc !== 0 && rc !== 36) throw new Error(`mock topic create ${topic} failed with error ${rc}`);
  }

  /** Takes one broker (or all with -1) down; clients see connection refusals until `up`. */
  setDown(brokerId = -1): void {
    this.forBrokers(brokerId, (id) => loadApi().brokerDown(this.handle, id));
  }

  setUp(brokerId = -1): void {
    this.forBrokers(brokerId, (id) => loadApi().brokerUp(this.handle, id));
  }

  setRtt(rttMs: number, brokerId = -1): void {
    this.forBrokers(brokerId, (id) => loadApi().brokerRtt(this.handle, id, rttMs));
  }

  /** The next `errors.length` requests of `apiKey` fail with these error codes, in order. */
  pushRequestErrors(apiKey: number, errors: number[]): void {
    loadApi().pushErrors(this.handle, apiKey, errors.length, Int32Array.from(errors));
  }

  clearRequestErrors(apiKey: number): void {
    loadApi().clearErrors(this.handle, apiKey);
  }

  /** Blocks about a second; skip it when the process exits anyway. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    loadApi().clusterDestroy(this.handle);
    loadApi().kafkaDestroy(this.rk);
  }

  private forBrokers(brokerId: number, fn: (id: number) => unknown): void {
    const ids = brokerId === -1 ? Array.from({ length: this.brokerCount }, (_, i) => i + 1) : [brokerId];
    for (const id of ids) fn(id);
  }
}
