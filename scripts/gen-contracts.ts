/**
 * `npm run gen:contracts [-- --check]`: the event contracts of libs/messaging as files for consumers
 * that do not read TypeScript (decision 0012):
 *   docs/contracts/schemas/<topic>.schema.json          the payload, JSON Schema 2020-12 (on a topic of
 *                                                       several event types, the union of theirs)
 *   docs/contracts/schemas/<eventType>.v<N>.schema.json each event type's payload on such a topic
 *   docs/contracts/schemas/<topic>.headers.schema.json  the Kafka headers
 *   docs/asyncapi/platform.asyncapi.json                AsyncAPI 3.0: every topic as a channel with a
 *                                                       message per event type, its key, headers and
 *                                                       payload (by reference to the files above), who
 *                                                       sends and who receives it
 * Producers and consumers are apps of libs/registry: a contract names its producers (and subscribers
 * the registry does not list yet), the registry's `consumes` adds the rest; an unknown name fails here.
 * JSON goes through the repository's prettier settings, so this check and `prettier --check` agree.
 * `--check` writes nothing and fails on drift, including a schema file of a topic that no longer
 * exists; libs/messaging/src/contracts-docs.spec.ts runs it in the unit tests.
 *
 * A script rather than code in libs/messaging: the contracts lib may import nothing, and the document
 * needs the registry's apps.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as prettier from 'prettier';
import {
  EVERY_CONSUMER,
  EVERY_KAFKA_APP,
  EventHeader,
  SCHEMA_BASE_URI,
  topicDocumentation,
  type FieldSchema,
  type TopicDocumentation,
} from '@platform/messaging';
import { SERVICES, type ServiceDefinition } from '@platform/registry';

const ROOT = resolve(__dirname, '..');
const SCHEMA_DIR = 'docs/contracts/schemas';
const ASYNCAPI_FILE = 'docs/asyncapi/platform.asyncapi.json';
/** How the AsyncAPI document reaches the schema files: relative, so it works from a checkout. */
const SCHEMA_REF = '../contracts/schemas';
const KAFKA_BINDING = '0.5.0';
const APPS: readonly ServiceDefinition[] = SERVICES;
type Doc = Record<string, unknown>;

const out = (msg: string) => process.stdout.write(`${msg}\n`);
const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, _sep, c: string) => c.toUpperCase());
const camel = (name: string) => pascal(name).replace(/^./, (c) => c.toLowerCase());

/** Each topic's senders and receivers as registry apps. */
interface Parties {
  readonly producers: readonly ServiceDefinition[];
  readonly consumers: readonly ServiceDefinition[];
}

function app(name: string, topic: string): ServiceDefinition {
  const found = APPS.find((s) => s.name === name);
  if (!found) throw new Error(`${topic} names ${name}, which is not an app of libs/registry`);
  return found;
}

function parties(topics: readonly TopicDocumentation[]): Map<string, Parties> {
  const known = new Set(topics.map((t) => t.topic));
  for (const s of APPS)
    for (const topic of s.consumes)
      if (!known.has(topic)) throw new Error(`${s.name} consumes ${topic}, which has no contract`);
  const consumers = new Map<string, readonly ServiceDefinition[]>();
  for (const t of topics) {
    const names = new Set(t.consumers.map((c) => app(c, t.topic).name));
    for (const s of APPS) if (s.consumes.includes(t.topic)) names.add(s.name);
    consumers.set(
      t.topic,
      APPS.filter((s) => names.has(s.name)),
    );
  }
  const receivers = new Set([...consumers.values()].flat().map((s) => s.name));
  const result = new Map<string, Parties>();
  for (const t of topics) {
    const names = new Set(
      t.producers.flatMap((p) =>
        p === EVERY_KAFKA_APP
          ? APPS.filter((s) => s.kafka).map((s) => s.name)
          : p === EVERY_CONSUMER
            ? [...receivers]
            : [app(p, t.topic).name],
      ),
    );
    if (names.size === 0) throw new Error(`${t.topic} has no producer`);
    result.set(t.topic, {
      producers: APPS.filter((s) => names.has(s.name)),
      consumers: consumers.get(t.topic) ?? [],
    });
  }
  return result;
}

const schemaFile = (topic: string) => `${topic}.schema.json`;
const headersFile = (topic: string) => `${topic}.headers.schema.json`;
/** A payload schema's file, from its `$id` (an event type's on a topic of several). */
const fileOf = (schema: { $id: string }) => schema.$id.slice(SCHEMA_BASE_URI.length);
const firstSentence = (text: string) => text.split(/(?<=\.)\s/)[0];
const list = (apps: readonly ServiceDefinition[]) => apps.map((s) => `\`${s.name}\``).join(', ');

function sendDescription(t: TopicDocumentation, s: ServiceDefinition): string {
  if (t.eventType === null)
    return s.name === 'outbox-relay'
      ? 'outbox-relay dead-letters an outbox row after RELAY_MAX_FAILURES message-specific failures.'
      : `${s.name}'s consumers (libs/consumer) dead-letter a message that is poison (not JSON, no event id, ` +
          'contract violation) at once, and one whose handler failed every attempt.';
  if (s.schema === null || t.delivery === 'direct') return `${s.name} publishes it itself.`;
  return (
    `${s.name} writes it to its outbox (schema \`${s.schema}\`); outbox-relay publishes it with the ` +
    'key and headers described here.'
  );
}

function receiveDescription(s: ServiceDefinition): string {
  return (
    `${s.name} consumes it through libs/consumer: validated against the contract, applied once per ` +
    'event id (its inbox), retried, dead-lettered when it cannot be handled.'
  );
}

/** What the document says of one message: a topic's only one, or one event type of several. */
interface Message {
  readonly name: string;
  readonly eventType: string;
  readonly description: string;
  readonly key: FieldSchema;
  readonly payloadFile: string;
  readonly example: TopicDocumentation['example'];
}

function messagesOf(t: TopicDocumentation): Message[] {
  if (!t.members.length)
    return [
      {
        name: t.name,
        eventType: t.eventType ?? t.topic,
        description: t.description,
        key: t.key,
        payloadFile: schemaFile(t.topic),
        example: t.example,
      },
    ];
  return t.members.map((m) => ({
    name: m.name,
    eventType: m.eventType,
    description: `${m.description}\n\nOn \`${t.topic}\` with the \`event-type\` header \`${m.eventType}\`.`,
    key: m.key,
    payloadFile: fileOf(m.payloadSchema),
    example: m.example,
  }));
}

function asyncApi(topics: readonly TopicDocumentation[], who: Map<string, Parties>, version: string): Doc {
  const channels: Doc = {};
  const operations: Doc = {};
  const messages: Doc = {};
  for (const t of topics) {
    const { producers, consumers } = who.get(t.topic) as Parties;
    const channelId = camel(t.name);
    const channelRef = { $ref: `#/channels/${channelId}` };
    const own = messagesOf(t);
    const messageRefs = own.map((m) => ({ $ref: `#/channels/${channelId}/messages/${m.name}` }));
    for (const m of own) {
      const example = m.example;
      messages[m.name] = {
        name: m.eventType,
        title: m.name,
        summary: firstSentence(m.description),
        description: m.description,
        contentType: 'application/json',
        headers: { $ref: `${SCHEMA_REF}/${headersFile(t.topic)}` },
        payload: { $ref: `${SCHEMA_REF}/${m.payloadFile}` },
        correlationId: {
          description: 'The HTTP request that caused the event, when one did.',
          location: `$message.header#/${EventHeader.RequestId}`,
        },
        bindings: { kafka: { key: m.key, bindingVersion: KAFKA_BINDING } },
        ...(example && {
          examples: [
            {
              name: 'example',
              summary: `Key: ${example.key}`,
              headers: example.headers,
              payload: example.payload,
            },
          ],
        }),
      };
    }
    const several = own.length > 1 ? ` It carries ${own.length} event types, one message each.` : '';
    channels[channelId] = {
      address: t.topic,
      title: t.topic,
      summary: firstSentence(t.description),
      description:
        `${t.description}${several}\n\nProduced by ${list(producers)}` +
        (t.delivery === 'direct' ? ', each sending it itself.' : ', published by `outbox-relay`.') +
        (consumers.length ? ` Consumed by ${list(consumers)}.` : ' No app of the platform consumes it.'),
      messages: Object.fromEntries(own.map((m) => [m.name, { $ref: `#/components/messages/${m.name}` }])),
      bindings: { kafka: { topic: t.topic, bindingVersion: KAFKA_BINDING } },
    };
    for (const s of producers)
      operations[`${camel(s.name)}Sends${t.name}`] = {
        action: 'send',
        channel: channelRef,
        messages: messageRefs,
        summary: `${s.name} sends ${t.topic}`,
        description: sendDescription(t, s),
        tags: [{ name: s.name }],
      };
    for (const s of consumers)
      operations[`${camel(s.name)}Receives${t.name}`] = {
        action: 'receive',
        channel: channelRef,
        messages: messageRefs,
        summary: `${s.name} receives ${t.topic}`,
        description: receiveDescription(s),
        tags: [{ name: s.name }],
      };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Platform events',
      version,
      description: [
        'Every Kafka topic of the platform. Generated from libs/messaging and libs/registry by ' +
          '`npm run gen:contracts`; CI fails when it drifts from the code.',
        '',
        '- Topic names are `<domain>.<entity>.<event>.v<N>`. A breaking change is a new topic version; the ' +
          'old topic keeps its schema while it is produced.',
        '- The message key is the aggregate id, so the events of one aggregate share a partition, in order.',
        '- A topic may carry several event types (one message each, named by the `event-type` header and ' +
          "the payload's `eventType`) so that one aggregate's events of every type stay in order; its " +
          'payload file is the union of theirs, each type also has a file of its own.',
        '- The value is JSON. Payload and header schemas are JSON Schema 2020-12 files under ' +
          '`docs/contracts/schemas/`, referenced here; they use only keywords that mean the same in ' +
          'draft-07. Payloads refuse unknown properties.',
        '- Delivery is at least once: dedupe on the `event-id` header.',
        '- Services write events to an outbox in the transaction of the change; `outbox-relay` publishes ' +
          'them. Operational signals (health heartbeats) are sent by each app directly. What cannot be ' +
          'delivered goes to `platform.outbox.dead-lettered.v1`.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      production: {
        host: '{bootstrap}',
        protocol: 'kafka',
        title: 'Production cluster',
        description:
          'The Kafka cluster of a deployment: its apps get the bootstrap brokers as KAFKA_BROKERS (with ' +
          'KAFKA_SSL and KAFKA_SASL_* when the cluster needs them).',
        variables: {
          bootstrap: {
            default: 'kafka-bootstrap:9092',
            description: 'A bootstrap broker, host:port (placeholder; k8s/base uses kafka-bootstrap:9092).',
          },
        },
      },
      development: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        title: 'Development broker',
        description:
          'A broker on your own machine, e.g. `KAFKA_BROKERS=127.0.0.1:9092 npm start`. Without ' +
          'KAFKA_BROKERS, `npm start` runs an embedded mock broker on a port of its own.',
      },
    },
    channels,
    operations,
    components: { messages },
  };
}

/** Every generated file, path relative to the repository -> content. */
async function generate(): Promise<Map<string, string>> {
  const topics = topicDocumentation();
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const documents = new Map<string, unknown>();
  for (const t of topics) {
    documents.set(`${SCHEMA_DIR}/${schemaFile(t.topic)}`, t.payloadSchema);
    documents.set(`${SCHEMA_DIR}/${headersFile(t.topic)}`, t.headersSchema);
    for (const m of t.members) documents.set(`${SCHEMA_DIR}/${fileOf(m.payloadSchema)}`, m.payloadSchema);
  }
  documents.set(ASYNCAPI_FILE, asyncApi(topics, parties(topics), version));
  const files = new Map<string, string>();
  for (const [path, doc] of documents) {
    const options = (await prettier.resolveConfig(join(ROOT, path))) ?? {};
    files.set(path, await prettier.format(JSON.stringify(doc), { ...options, filepath: join(ROOT, path) }));
  }
  return files;
}

/** Files in the generated folder that nothing generates any more. */
function stale(files: Map<string, string>): string[] {
  const dir = join(ROOT, SCHEMA_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${SCHEMA_DIR}/${f}`)
    .filter((p) => !files.has(p));
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = await generate();
  const drift: string[] = [];
  for (const [path, content] of files) {
    const abs = join(ROOT, path);
    const current = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
    if (current === content) continue;
    drift.push(current === null ? `missing ${path}` : `changed ${path}`);
    if (!check) {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  }
  for (const path of stale(files)) {
    drift.push(`stale ${path}`);
    if (!check) unlinkSync(join(ROOT, path));
  }
  if (check && drift.length) {
    out(`Event contract documents drifted from libs/messaging (run npm run gen:contracts):`);
    for (const d of drift) out(`  ${d}`);
    process.exitCode = 1;
    return;
  }
  out(
    check
      ? `gen:contracts: ${files.size} files up to date`
      : `gen:contracts: ${drift.length ? drift.join(', ') : 'nothing to change'} (${files.size} files)`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
