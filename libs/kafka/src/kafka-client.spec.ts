import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, KafkaClientConfig, loadConfig } from '@platform/config';
import { logLevel, type LogEntry } from 'kafkajs';
import { kafkaClientOptions, kafkaLogLevel, kafkaMicroserviceOptions } from './kafka-client';

// Shapes only: the TLS handshake with these options is in libs/kafka/test/kafka-tls.int-spec.ts.
const CA = '-----BEGIN CERTIFICATE-----\nTUlJQ0E=\n-----END CERTIFICATE-----\n';
const OTHER_CA = '-----BEGIN CERTIFICATE-----\nT1RIRVI=\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nQ0xJRU5U\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nS0VZ\n-----END PRIVATE KEY-----\n';

describe('kafkaClientOptions: TLS settings to kafkajs', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const config = (env: Record<string, string>) => loadConfig(KafkaClientConfig, env);

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('plain by default, and `ssl: true` (Node public roots) with KAFKA_SSL alone', () => {
    expect(kafkaClientOptions(config({})).ssl).toBe(false);
    expect(kafkaClientOptions(config({ KAFKA_SSL: 'true' })).ssl).toBe(true);
  });

  it('KAFKA_SSL_CA_FILE: the PEM bundle as the only trusted CAs, the broker name still checked', () => {
    const ca = file('ca.crt', CA + OTHER_CA);
    const ssl = kafkaClientOptions(config({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca })).ssl;
    expect(ssl).toEqual({ ca: [CA + OTHER_CA] });
    expect(ssl).not.toHaveProperty('rejectUnauthorized');
    expect(ssl).not.toHaveProperty('checkServerIdentity');
  });

  it('client certificate and key for mutual TLS, with the CA, in every client the apps make', () => {
    const cfg = config({
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: file('ca.crt', CA),
      KAFKA_SSL_CERT_FILE: file('user.crt', CERT),
      KAFKA_SSL_KEY_FILE: file('user.key', KEY),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'platform',
      KAFKA_SASL_PASSWORD: 'secret',
    });
    const expected = { ca: [CA], cert: CERT, key: KEY };
    expect(kafkaClientOptions(cfg)).toMatchObject({
      ssl: expected,
      sasl: { mechanism: 'scram-sha-512', username: 'platform', password: 'secret' },
    });
    expect(kafkaMicroserviceOptions(cfg, 'g').options?.client?.ssl).toEqual(expected);
  });

  it('a file that cannot be read, or holds no PEM of its kind, fails naming the setting', () => {
    expect(() =>
      kafkaClientOptions(config({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'missing.crt') })),
    ).toThrow(`KAFKA_SSL_CA_FILE: cannot read ${join(dir, 'missing.crt')} (ENOENT)`);
    expect(() =>
      kafkaClientOptions(config({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('key-instead.crt', KEY) })),
    ).toThrow(/KAFKA_SSL_CA_FILE: .*key-instead\.crt holds no PEM CERTIFICATE/);
    expect(() =>
      kafkaClientOptions(
        config({
          KAFKA_SSL: 'true',
          KAFKA_SSL_CERT_FILE: file('user.crt', CERT),
          KAFKA_SSL_KEY_FILE: file('user.key', CERT),
        }),
      ),
    ).toThrow(/KAFKA_SSL_KEY_FILE: .*user\.key holds no PEM PRIVATE KEY/);
  });

  it('refuses at boot: TLS files without KAFKA_SSL=true, a certificate without its key and the reverse', () => {
    const problems = (env: Record<string, string>) => {
      try {
        config(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ KAFKA_SSL_CA_FILE: '/ca.crt' })).toEqual(['KAFKA_SSL_CA_FILE needs KAFKA_SSL=true']);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/user.crt' })).toEqual([
      'KAFKA_SSL_CERT_FILE needs KAFKA_SSL=true and KAFKA_SSL_KEY_FILE',
    ]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: '/user.key' })).toEqual([
      'KAFKA_SSL_KEY_FILE needs KAFKA_SSL=true and KAFKA_SSL_CERT_FILE',
    ]);
    expect(problems({ KAFKA_SSL_CERT_FILE: '/user.crt', KAFKA_SSL_KEY_FILE: '/user.key' }).sort()).toEqual([
      'KAFKA_SSL_CERT_FILE needs KAFKA_SSL=true and KAFKA_SSL_KEY_FILE',
      'KAFKA_SSL_KEY_FILE needs KAFKA_SSL=true and KAFKA_SSL_CERT_FILE',
    ]);
    expect(
      problems({
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: '/ca.crt',
        KAFKA_SSL_CERT_FILE: '/user.crt',
        KAFKA_SSL_KEY_FILE: '/user.key',
      }),
    ).toEqual([]);
  });
});

describe('kafkajs log lines', () => {
  const entry = (level: logLevel, namespace: string, log: Record<string, unknown>): LogEntry => ({
    namespace,
    level,
    label: { [logLevel.ERROR]: 'ERROR', [logLevel.WARN]: 'WARN' }[level as number] ?? 'INFO',
    log: { timestamp: '2026-12-03T07:00:00.000Z', message: '', ...log },
  });
  const rebalancing = entry(logLevel.ERROR, 'Connection', {
    message: 'Response Heartbeat(key: 12, version: 3)',
    error: 'The group is rebalancing, so a rejoin is needed',
  });

  it("prints the group protocol's routine answers (a rebalance) at DEBUG, failures as they are", () => {
    expect(kafkaLogLevel(rebalancing)).toBe(logLevel.DEBUG);
    const refused = entry(logLevel.ERROR, 'Connection', {
      message: 'Response Produce(key: 0, version: 7)',
      error: 'Not authorized to access topics: [Topic authorization failed]',
    });
    expect(kafkaLogLevel(refused)).toBe(logLevel.ERROR);
    const crash = entry(logLevel.ERROR, 'Consumer', { message: 'Crash: KafkaJSConnectionClosedError' });
    expect(kafkaLogLevel(crash)).toBe(logLevel.ERROR);
  });

  it('every client the apps make logs through it: a rebalance prints nothing, a failure one JSON line', () => {
    const create = kafkaClientOptions(loadConfig(KafkaClientConfig, {})).logCreator;
    expect(create).toBeDefined();
    const log = create?.(logLevel.WARN);
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      log?.(rebalancing);
      expect(spy).not.toHaveBeenCalled();
      log?.(entry(logLevel.ERROR, 'Consumer', { message: 'Crash: boom', groupId: 'g' }));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(spy.mock.calls[0][0]))).toEqual({
        level: 'ERROR',
        timestamp: '2026-12-03T07:00:00.000Z',
        message: '[Consumer] Crash: boom',
        groupId: 'g',
      });
    } finally {
      spy.mockRestore();
    }
  });
});
