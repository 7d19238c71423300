import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { auditRoutes, type AccessRule, type AuditedRoute } from '@platform/auth';
import { CommonError, commonError, type ErrorSpec } from '@platform/envelope';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import { API_REASONS } from './api-reasons.decorator';
import type { Catalog } from './catalog';
import { upgradeTo31 } from './openapi-31';

type Json = Record<string, unknown>;

/** A credential scheme as the reference shows it: the header that carries it and what can go wrong. */
export interface SchemeDoc {
  header: string;
  description: string;
  /** Reasons any route of this scheme may answer (missing, invalid, revoked key; tenant header...). */
  reasons: string[];
  /**
   * A bearer token from an OAuth 2.0 client credentials exchange: described as `type: oauth2` with
   * `flows.clientCredentials`, so Swagger UI's Authorize and generated clients can run the exchange.
   * `scopes`: each scope a token may carry, with what it allows.
   */
  oauth2ClientCredentials?: { tokenUrl: string; scopes: Record<string, string> };
}

/** What a service says about its API; the rest is read from its routes, DTOs and decorators. */
export interface ApiReferenceDefinition {
  /** File name: docs/openapi/<service>.<lang>.json, and the page /docs/<service>. */
  service: string;
  title: string;
  description: string;
  version: string;
  /** Descriptions of the operation groups (`@ApiTags`). */
  tags: Record<string, string>;
  /** The app's root module, for the route audit (schemes, scopes, exemptions). */
  module: Type<unknown> | DynamicModule;
  schemes: Record<string, SchemeDoc>;
  /** Reasons of a caller lacking a required scope (SCOPE_MISSING, or the app's own words). */
  denied: string[];
  /** The app's error tables, so a reason's status and message come from where they are thrown. */
  errors: { readonly specs: Readonly<Record<string, ErrorSpec>> }[];
}

/** Localised runtime message of an i18n key (the same text the API answers with). */
export type MessageText = (messageKey: string, lang: Language) => string;

const BODY_REASONS = [
  CommonError.VALIDATION_FAILED,
  CommonError.MALFORMED_BODY,
  CommonError.BODY_TOO_DEEP,
  CommonError.PAYLOAD_TOO_LARGE,
  CommonError.UNSUPPORTED_MEDIA_TYPE,
];

/** English descriptions of error statuses; translated through the catalog like every other text. */
const STATUS_TEXT: Record<number, string> = {
  400: 'The request is malformed or fails validation.',
  401: 'The credential is missing, invalid, revoked or expired.',
  403: 'The caller may not do this.',
  404: 'Not found.',
  408: 'The request took too long to arrive.',
  409: 'Conflict with the current state.',
  413: 'The body is too large.',
  415: 'The body is not JSON.',
  422: 'The request cannot be processed.',
  429: 'Too many requests.',
  431: 'The request headers are too large.',
};

/** What any request can get before it reaches a handler: an unparsable URL or oversized headers. */
const TRANSPORT_REASONS = [
  CommonError.BAD_REQUEST,
  CommonError.VALIDATION_FAILED,
  CommonError.HEADERS_TOO_LARGE,
];

export const ACCESS_TEXT = {
  allOf: 'Required scopes (all of)',
  anyOf: 'Required scopes (one of)',
  exempt: 'No scope required',
  public: 'Anonymous: no credential required.',
  server: 'Through the gateway (this page and the API share one address)',
  reasons: 'Reasons this operation can answer',
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Texts of a schema object that a reader sees, recursively. */
function schemaTexts(schema: unknown, visit: (holder: Json, key: string) => void): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach((s) => schemaTexts(s, visit));
  const s = schema as Json;
  for (const key of ['title', 'description']) if (typeof s[key] === 'string') visit(s, key);
  if (s.properties && typeof s.properties === 'object')
    Object.values(s.properties as Json).forEach((p) => schemaTexts(p, visit));
  for (const key of ['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf'])
    schemaTexts(s[key], visit);
}

/** Calls `visit` on every human text of the document (not names, codes, paths or examples' values). */
export function visitTexts(doc: Json, visit: (holder: Json, key: string) => void): void {
  const info = doc.info as Json;
  for (const key of ['title', 'description']) if (typeof info[key] === 'string') visit(info, key);
  for (const server of (doc.servers ?? []) as Json[])
    if (typeof server.description === 'string') visit(server, 'description');
  for (const tag of (doc.tags ?? []) as Json[])
    if (typeof tag.description === 'string') visit(tag, 'description');
  const components = (doc.components ?? {}) as Json;
  for (const scheme of Object.values((components.securitySchemes ?? {}) as Json)) {
    if (typeof (scheme as Json).description === 'string') visit(scheme as Json, 'description');
    // OAuth 2.0 scopes: name -> what it allows (the name is a code, its description a text).
    for (const flow of Object.values(((scheme as Json).flows ?? {}) as Json)) {
      const scopes = ((flow as Json).scopes ?? {}) as Json;
      for (const name of Object.keys(scopes)) if (typeof scopes[name] === 'string') visit(scopes, name);
    }
  }
  for (const schema of Object.values((components.schemas ?? {}) as Json)) schemaTexts(schema, visit);
  for (const item of Object.values((doc.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      for (const key of ['summary', 'description']) if (typeof op[key] === 'string') visit(op, key);
      for (const p of (op.parameters ?? []) as Json[]) {
        if (typeof p.description === 'string') visit(p, 'description');
        schemaTexts(p.schema, visit);
      }
      const body = op.requestBody as Json | undefined;
      if (body) {
        if (typeof body.description === 'string') visit(body, 'description');
        for (const media of Object.values((body.content ?? {}) as Json)) {
          schemaTexts((media as Json).schema, visit);
          for (const ex of Object.values(((media as Json).examples ?? {}) as Json))
            for (const key of ['summary', 'description'])
              if (typeof (ex as Json)[key] === 'string') visit(ex as Json, key);
        }
      }
      for (const res of Object.values((op.responses ?? {}) as Json)) {
        if (typeof (res as Json).description === 'string') visit(res as Json, 'description');
        for (const media of Object.values(((res as Json).content ?? {}) as Json))
          schemaTexts((media as Json).schema, visit);
      }
    }
  }
}

/** Every English text of a document: the catalog's keys. */
export function englishTexts(doc: Json): Set<string> {
  const texts = new Set<string>();
  const add = (text: string) => paragraphs(text).forEach((p) => texts.add(p));
  visitTexts(doc, (holder, key) => add(holder[key] as string));
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>))
    for (const method of METHODS)
      ((item[method] as Json | undefined)?.['x-access'] as string[] | undefined)?.forEach(add);
  return texts;
}

/** Translation units: paragraphs, so a shared paragraph (the envelope note) is translated once. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

function ruleText(rule: AccessRule | undefined): string[] {
  if (!rule) return [];
  if (rule.kind === 'exempt') return [ACCESS_TEXT.exempt, rule.reason];
  return [rule.kind === 'all-of' ? ACCESS_TEXT.allOf : ACCESS_TEXT.anyOf];
}

/**
 * The service's reference in English, OpenAPI 3.1: operations with their security, the envelope of
 * every response, and for each error status the reasons the operation can answer. Built from the
 * running app (its routes, DTOs and decorators) so it cannot drift from the code.
 */
export function buildEnglishReference(app: INestApplication, def: ApiReferenceDefinition): Json {
  const raw = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle(def.title).setDescription(def.description).setVersion(def.version).build(),
  ) as unknown as Json;
  const doc = upgradeTo31(raw);
  doc.servers = [{ url: '/', description: ACCESS_TEXT.server }];
  doc.info = {
    ...(doc.info as Json),
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
  };
  const components = (doc.components ?? {}) as Json;
  doc.components = components;
  components.securitySchemes = Object.fromEntries(
    Object.entries(def.schemes).map(([name, s]) => [
      name,
      s.oauth2ClientCredentials
        ? {
            type: 'oauth2',
            description: s.description,
            flows: {
              clientCredentials: {
                tokenUrl: s.oauth2ClientCredentials.tokenUrl,
                scopes: s.oauth2ClientCredentials.scopes,
              },
            },
          }
        : { type: 'apiKey', in: 'header', name: s.header, description: s.description },
    ]),
  );
  const schemas = (components.schemas ?? {}) as Json;
  components.schemas = schemas;
  schemas.ErrorEnvelope = ERROR_ENVELOPE;

  const routes = new Map<string, AuditedRoute>();
  for (const r of auditRoutes(def.module)) routes.set(`${r.method.toLowerCase()} ${r.path}`, r);
  const paths = doc.paths as Record<string, Json>;
  for (const path of Object.keys(paths)) {
    // Health is the gateway's own /health/<service>/...: not part of the service's API.
    if (path.startsWith('/health')) {
      delete paths[path];
      continue;
    }
    for (const method of METHODS) {
      const op = paths[path][method] as Json | undefined;
      if (!op) continue;
      const route = routes.get(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      op.operationId = operationId(op, path, paths[path], route);
      decorateOperation(op, route, def);
    }
  }
  assertUniqueOperationIds(def.service, paths);
  requireEveryObjectsRequired(doc);
  const used = new Set<string>();
  for (const item of Object.values(paths))
    for (const method of METHODS)
      ((item[method] as Json | undefined)?.tags as string[] | undefined)?.forEach((t) => used.add(t));
  const missingTags = [...used].filter((t) => !def.tags[t]);
  if (missingTags.length) throw new Error(`${def.service}: describe the tags ${missingTags.join(', ')}`);
  doc.tags = [...used].sort().map((name) => ({ name, description: def.tags[name] }));
  return doc;
}

/**
 * A stable, meaningful operation id (what SDK generators name methods after), never Nest's default
 * `<Controller>_<method>`, which moves with a class rename. An explicit `@ApiOperation({ operationId })`
 * wins; else an RPC route (`/<Area>/<Operation>`, one method) is its operation's name as the spec
 * writes it (`GetApplications`, `upsert`, `StatusPage`); else the handler's name (`signedUploadUrl`).
 * Ids are unique per document, case-insensitively (`assertUniqueOperationIds`).
 */
function operationId(op: Json, path: string, item: Json, route: AuditedRoute | undefined): string {
  const current = String(op.operationId ?? '');
  if (!route) return current;
  if (current !== `${route.target.name}_${route.handler}`) return current;
  const segments = path.split('/').filter(Boolean);
  const methods = METHODS.filter((m) => item[m]);
  const last = segments[segments.length - 1] ?? '';
  if (segments.length === 2 && methods.length === 1 && /^[A-Za-z][A-Za-z0-9]*$/.test(last)) return last;
  return route.handler;
}

function assertUniqueOperationIds(service: string, paths: Record<string, Json>): void {
  const seen = new Map<string, string[]>();
  for (const [path, item] of Object.entries(paths))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const key = String(op.operationId).toLowerCase();
      seen.set(key, [
        ...(seen.get(key) ?? []),
        `${method.toUpperCase()} ${path} (${String(op.operationId)})`,
      ]);
    }
  const clashes = [...seen.values()].filter((ops) => ops.length > 1);
  if (clashes.length)
    throw new Error(
      `${service}: operation ids must be unique; give these an @ApiOperation({ operationId }): ${clashes
        .map((c) => c.join(', '))
        .join('; ')}`,
    );
}

/**
 * Every object schema with properties states which are required (`required: []` when none is), so
 * a generated client types them right: a missing list makes every property optional (`items?`).
 */
function requireEveryObjectsRequired(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach(requireEveryObjectsRequired);
  const s = schema as Json;
  if (s.properties && typeof s.properties === 'object' && !Array.isArray(s.required)) s.required = [];
  for (const [key, value] of Object.entries(s))
    if (key !== 'example' && key !== 'examples') requireEveryObjectsRequired(value);
}

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'code', 'error', 'value'],
  description: 'Error envelope: `value.reason` is the stable code, `error` the localised text.',
  properties: {
    success: { type: 'boolean', const: false },
    code: { type: 'integer', description: 'The HTTP status.' },
    error: { type: 'string', description: 'The localised message.' },
    value: {
      type: 'object',
      required: ['reason'],
      properties: {
        reason: { type: 'string', description: 'Stable, language-independent error code.' },
        requestId: { type: 'string', description: 'Quote it when asking for support.' },
        fields: {
          type: 'array',
          description: 'Validation problems, one per field and rule.',
          items: {
            type: 'object',
            required: ['field', 'rule', 'message'],
            properties: {
              field: { type: 'string' },
              rule: { type: 'string' },
              message: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

function decorateOperation(op: Json, route: AuditedRoute | undefined, def: ApiReferenceDefinition): void {
  const reasons = new Set<string>();
  // A credential header is the security scheme's to send ("Authorize"), not a parameter to fill in.
  const credentialHeaders = new Set(Object.values(def.schemes).map((s) => s.header.toLowerCase()));
  op.parameters = ((op.parameters ?? []) as Json[]).filter(
    (p) => !(p.in === 'header' && credentialHeaders.has(String(p.name).toLowerCase())),
  );
  if (route?.access === 'authenticated') {
    // An OAuth 2.0 requirement lists the scopes the token must carry (all of them); a key scheme none.
    const tokenScopes = route.authorization?.kind === 'all-of' ? route.authorization.scopes : [];
    op.security = route.schemes
      .filter((s) => def.schemes[s])
      .map((s) => ({ [s]: def.schemes[s].oauth2ClientCredentials ? [...tokenScopes] : [] }));
    for (const s of route.schemes) def.schemes[s]?.reasons.forEach((r) => reasons.add(r));
    if (route.authorization && route.authorization.kind !== 'exempt')
      def.denied.forEach((r) => reasons.add(r));
    op['x-required-scopes'] =
      route.authorization?.kind === 'exempt'
        ? { exempt: route.authorization.reason }
        : { [route.authorization?.kind ?? 'all-of']: route.authorization?.scopes ?? [] };
    op['x-access'] = ruleText(route.authorization);
  } else {
    op.security = [];
    op['x-access'] = [ACCESS_TEXT.public];
  }
  TRANSPORT_REASONS.forEach((r) => reasons.add(r));
  if (op.requestBody) BODY_REASONS.forEach((r) => reasons.add(r));
  if (((op.parameters ?? []) as Json[]).some((p) => p.in === 'query' || p.in === 'path'))
    reasons.add(CommonError.VALIDATION_FAILED);
  const explicit =
    (route && (Reflect.getMetadata(API_REASONS, route.target.prototype[route.handler]) as string[])) ?? [];
  explicit.forEach((r) => reasons.add(r));
  op['x-reasons'] = [...reasons];
  const responses = (op.responses ?? {}) as Json;
  op.responses = responses;
  // Error responses are rebuilt from the reasons; success responses stay as the handler documents them,
  // and so does an error shape of the route's own (not the envelope), e.g. RFC 6749 token errors.
  for (const [status, res] of Object.entries(responses)) {
    const schema = (((res as Json).content as Json | undefined)?.['application/json'] as Json | undefined)
      ?.schema as Json | undefined;
    if (Number(status) >= 400 && !(schema?.$ref && schema.$ref !== '#/components/schemas/ErrorEnvelope'))
      delete responses[status];
  }
}

/** Spec (status, message key) of every reason the service can answer. */
function reasonSpecs(def: ApiReferenceDefinition): Map<string, ErrorSpec> {
  const specs = new Map<string, ErrorSpec>();
  for (const table of [commonError, ...def.errors])
    for (const [code, spec] of Object.entries(table.specs)) specs.set(code, spec as ErrorSpec);
  return specs;
}

/**
 * The reference in one language: every text through the catalog (English stays), then the error
 * responses with each reason's message in that language, as the API itself answers it.
 */
export function localiseReference(
  english: Json,
  def: ApiReferenceDefinition,
  lang: Language,
  catalog: Catalog,
  message: MessageText,
): { doc: Json; missing: string[] } {
  const doc = JSON.parse(JSON.stringify(english)) as Json;
  const missing = new Set<string>();
  const t = (text: string) => {
    if (lang === 'en') return text;
    return paragraphs(text)
      .map((p) => {
        const translated = catalog[p];
        if (translated === undefined) missing.add(p);
        return translated ?? p;
      })
      .join('\n\n');
  };
  visitTexts(doc, (holder, key) => (holder[key] = t(holder[key] as string)));
  const specs = reasonSpecs(def);
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const [label, reason] = (op['x-access'] as string[]).map(t);
      delete op['x-access'];
      const required = op['x-required-scopes'] as Record<string, string[] | string> | undefined;
      const scopes = required && !('exempt' in required) ? Object.values(required)[0] : [];
      const access = reason
        ? `${label}: ${reason}`
        : scopes.length
          ? `${label}: ${(scopes as string[]).map((x) => `\`${x}\``).join(', ')}`
          : label;
      op.description = [op.description, access].filter(Boolean).join('\n\n');
      const byStatus = new Map<number, string[]>();
      for (const reason of op['x-reasons'] as string[]) {
        const spec = specs.get(reason);
        if (!spec) throw new Error(`${def.service}: reason ${reason} has no error table entry`);
        byStatus.set(spec.status, [...(byStatus.get(spec.status) ?? []), reason]);
      }
      const responses = op.responses as Json;
      for (const [status, reasons] of [...byStatus].sort(([a], [b]) => a - b)) {
        // A route answering its own error shape at this status (an OAuth token endpoint's RFC 6749
        // errors) keeps it: the envelope is then the other shape the status may carry.
        const own = (responses[String(status)] as Json | undefined)?.content as Json | undefined;
        const ownSchema = (own?.['application/json'] as Json | undefined)?.schema as Json | undefined;
        const envelope = { $ref: '#/components/schemas/ErrorEnvelope' };
        const schema =
          ownSchema && ownSchema.$ref !== envelope.$ref ? { oneOf: [ownSchema, envelope] } : envelope;
        const ownText = (responses[String(status)] as Json | undefined)?.description as string | undefined;
        responses[String(status)] = {
          description: [ownSchema ? ownText : undefined, t(STATUS_TEXT[status] ?? 'Error.')]
            .filter(Boolean)
            .join('\n\n'),
          content: {
            'application/json': {
              schema,
              examples: Object.fromEntries(
                reasons.map((reason) => {
                  const text = message((specs.get(reason) as ErrorSpec).messageKey, lang);
                  return [
                    reason,
                    {
                      summary: reason,
                      value: {
                        success: false,
                        code: status,
                        error: text,
                        value: { reason, requestId: 'a1b2c3d4' },
                      },
                    },
                  ];
                }),
              ),
            },
          },
        };
      }
    }
  }
  return { doc, missing: [...missing] };
}

/** English texts the generator adds itself (not from a decorator), for the catalog's completeness. */
export const GENERATED_TEXTS = [...Object.values(STATUS_TEXT), ...Object.values(ACCESS_TEXT), 'Error.'];

export const LANGUAGES: readonly Language[] = SUPPORTED_LANGUAGES;
