/** Turns the OpenAPI 3.0 document @nestjs/swagger emits into valid OpenAPI 3.1 (JSON Schema 2020-12). */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One schema object: `nullable` becomes a `null` type, `example` becomes `examples`, recursively. */
export function upgradeSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upgradeSchema(v)]));
    } else if (['items', 'additionalProperties', 'not', 'contains'].includes(key)) {
      out[key] = upgradeSchema(value);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      out[key] = value.map(upgradeSchema);
    } else if (key === 'example') {
      out.examples = [value];
    } else if (key === 'nullable') {
      // handled below
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      // 3.0's boolean flags become 3.1's numeric bounds
    } else {
      out[key] = value;
    }
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      out[flag] = schema[bound];
      delete out[bound];
    }
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) out.type = [...new Set([...(out.type as string[]), 'null'])];
    else {
      const { description, ...rest } = out;
      return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
    }
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

function upgradeContent(content: unknown): void {
  if (!isObject(content)) return;
  for (const media of Object.values(content)) if (isObject(media)) media.schema = upgradeSchema(media.schema);
}

export function upgradeTo31(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = upgradeSchema(schema);
  for (const item of Object.values((doc.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue;
      for (const p of (op.parameters ?? []) as Json[]) if (p.schema) p.schema = upgradeSchema(p.schema);
      if (isObject(op.requestBody)) upgradeContent(op.requestBody.content);
      for (const res of Object.values((op.responses ?? {}) as Json)) {
        if (!isObject(res)) continue;
        upgradeContent(res.content);
        for (const h of Object.values((res.headers ?? {}) as Json))
          if (isObject(h) && h.schema) h.schema = upgradeSchema(h.schema);
      }
    }
  }
  return { ...doc, openapi: '3.1.0' };
}
