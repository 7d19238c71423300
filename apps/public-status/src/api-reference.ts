import { ENVELOPE_NOTE, tenantKeyScheme, type ApiReferenceDefinition } from '@platform/api-docs';
import { CommonError } from '@platform/envelope';
import { PublicStatusAppModule } from './app.module';
import { monitoringError } from './monitoring/monitoring.errors';
import { publicStatusError } from './status/public-status.errors';

/** The public status API's reference: docs/openapi/public-status.<lang>.json, at /docs/public-status. */
export const PUBLIC_STATUS_REFERENCE: ApiReferenceDefinition = {
  service: 'public-status',
  title: 'Public status API',
  version: '1',
  description: [
    'Anonymous: the state and uptime of what a business chose to publish. Something is public only when it, its product and its business are all published.',
    ENVELOPE_NOTE,
    'Management calls (`/PublicStatus/manage/...`): `X-Api-Key` and `Business-Id`; keys hold the scopes `status:read`, `status:write`, `incidents:write`, `maintenance:write`.',
  ].join('\n\n'),
  tags: {
    PublicStatus: 'Published products, their state and uptime, incidents and maintenance.',
    'PublicStatus management': "The business's catalog, publication, states, incidents and maintenance.",
  },
  module: PublicStatusAppModule.register({}),
  schemes: {
    'status-key': tenantKeyScheme('X-Api-Key', "The business's key; send `Business-Id` with it."),
  },
  denied: [CommonError.SCOPE_MISSING],
  errors: [monitoringError, publicStatusError],
};
