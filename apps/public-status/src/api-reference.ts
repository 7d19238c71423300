import { ENVELOPE_NOTE, type ApiReferenceDefinition } from '@platform/api-docs';
import { PublicStatusAppModule } from './app.module';

/** The public status API's reference: docs/openapi/public-status.<lang>.json, at /docs/public-status. */
export const PUBLIC_STATUS_REFERENCE: ApiReferenceDefinition = {
  service: 'public-status',
  title: 'Public status API',
  version: '1',
  description: ['Anonymous: the state of the products a business chose to publish.', ENVELOPE_NOTE].join(
    '\n\n',
  ),
  tags: { PublicStatus: 'Published products and their state.' },
  module: PublicStatusAppModule.register({}),
  schemes: {},
  denied: [],
  errors: [],
};
