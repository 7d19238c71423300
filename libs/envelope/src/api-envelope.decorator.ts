import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a response as the envelope around `model` (or `{ items, total }` of it with `list`). */
export function ApiEnvelope(
  model: Type<unknown> | [Type<unknown>, ...Type<unknown>[]],
  opts: { status?: number; list?: boolean; description?: string } = {},
) {
  // Several models: the value (or each item) is one of them, e.g. an event or a busy block.
  const models = Array.isArray(model) ? model : [model];
  const one =
    models.length === 1
      ? { $ref: getSchemaPath(models[0]) }
      : { oneOf: models.map((m) => ({ $ref: getSchemaPath(m) })) };
  const value = opts.list
    ? {
        type: 'object',
        required: ['items', 'total'],
        properties: {
          items: { type: 'array', items: one },
          total: { type: 'integer', example: 1 },
        },
      }
    : one;
  return applyDecorators(
    ApiExtraModels(...models),
    ApiResponse({
      status: opts.status ?? 200,
      description: opts.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'code', 'error', 'value'],
        properties: {
          success: { type: 'boolean', example: true },
          code: { type: 'integer', example: opts.status ?? 200 },
          error: { type: 'string', nullable: true, example: null },
          value,
        },
      },
    }),
  );
}

/** Documents the error envelope for the given statuses. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: 'Error envelope: `value.reason` is the stable code, `error` the localised text',
        schema: {
          type: 'object',
          properties: {
            success: { type: 'boolean', example: false },
            code: { type: 'integer', example: status },
            error: { type: 'string', example: 'Localised message' },
            value: {
              type: 'object',
              properties: {
                reason: { type: 'string' },
                requestId: { type: 'string' },
                fields: {
                  type: 'array',
                  items: {
                    type: 'object',
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
        },
      }),
    ),
  );
}
