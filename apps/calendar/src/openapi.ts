import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/**
 * The calendar's OpenAPI document. Committed as docs/openapi/calendar.json and checked for drift by a
 * test; served at /docs (UI) and /docs/openapi.json.
 */
export function calendarOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Calendar API')
    .setVersion('1')
    .setDescription(
      [
        'Schedule entries reported by products, addressed by the identity triple (product_id, entity_type, entity_id).',
        '',
        'Every response is `{ success, code, error, value }`; lists are `value: { items, total }`. Errors carry',
        '`value.reason` (stable code), `value.requestId` and, for validation, `value.fields[]`; `error` is localised',
        'by `Language-Code` then `Accept-Language` (en, ru, kk, uz, tr, es).',
        '',
        'Product calls: `API_KEY`, `AccountId`, `ProductId`. Person calls: `PlatformSession` (JWT). An integration',
        "needs the account owner's grant: Push (writes), Read (event details), FreeBusy (busy blocks only), Share.",
        'Writes are rate-limited per product (429 with `Retry-After` and `RateLimit-*` headers).',
      ].join('\n'),
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'API_KEY' }, 'API_KEY')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'PlatformSession' }, 'PlatformSession')
    .build();
  return SwaggerModule.createDocument(app, config);
}

export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => calendarOpenApi(app), { jsonDocumentUrl: 'docs/openapi.json' });
}
