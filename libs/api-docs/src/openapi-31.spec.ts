import { upgradeSchema, upgradeTo31 } from './openapi-31';

describe('OpenAPI 3.0 -> 3.1', () => {
  it('turns nullable into a null type, for plain types, enums and references', () => {
    expect(upgradeSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(upgradeSchema({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(upgradeSchema({ $ref: '#/components/schemas/X', nullable: true, description: 'd' })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
  });

  it('moves schema examples to `examples`, recursively, and makes exclusive bounds numeric', () => {
    expect(
      upgradeSchema({
        type: 'object',
        properties: { n: { type: 'integer', minimum: 0, exclusiveMinimum: true, example: 3 } },
        example: { n: 3 },
      }),
    ).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', exclusiveMinimum: 0, examples: [3] } },
      examples: [{ n: 3 }],
    });
  });

  it('upgrades parameter, body and response schemas and stamps 3.1.0', () => {
    const doc = upgradeTo31({
      openapi: '3.0.0',
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string', nullable: true } }],
            requestBody: { content: { 'application/json': { schema: { type: 'integer', example: 1 } } } },
            responses: {
              '200': { content: { 'application/json': { schema: { type: 'boolean', nullable: true } } } },
            },
          },
        },
      },
      components: { schemas: { S: { type: 'number', nullable: true } } },
    }) as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.S).toEqual({ type: ['number', 'null'] });
    expect(JSON.stringify(doc.paths)).not.toContain('nullable');
    expect(JSON.stringify(doc.paths)).toContain('"examples":[1]');
  });
});
