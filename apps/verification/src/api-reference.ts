import { ENVELOPE_NOTE, tenantKeyScheme, type ApiReferenceDefinition } from '@platform/api-docs';
import { CommonError } from '@platform/envelope';
import { VerificationAppModule } from './app.module';
import { casesError } from './cases/cases.errors';

/** Verification's API reference: docs/openapi/verification.<lang>.json, at /docs/verification. */
export const VERIFICATION_REFERENCE: ApiReferenceDefinition = {
  service: 'verification',
  title: 'Verification check API',
  version: '1',
  description: [
    'Identity and document verification cases of an organization.',
    ENVELOPE_NOTE,
    'Calls: `X-API-Key` and `Service-Organization-Id`; each key holds the permission areas it was issued with.',
  ].join('\n\n'),
  tags: { 'Verification cases': 'Cases, found by your own reference.' },
  module: VerificationAppModule.register({}),
  schemes: {
    'api-key': tenantKeyScheme(
      'X-API-Key',
      "The organization's key; send `Service-Organization-Id` with it.",
    ),
  },
  denied: [CommonError.SCOPE_MISSING],
  errors: [casesError],
};
