import { Organization } from '@platform/tenancy';
import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { CaseIdempotencyKey } from './cases/case-idempotency-key.entity';
import { CaseStatusChange } from './cases/case-status-change.entity';
import { CaseUploadToken } from './cases/case-upload-token.entity';
import { VerificationCase } from './cases/verification-case.entity';
import { VERIFICATION_MIGRATIONS } from './migrations';
import { ApiKey } from './tenancy/verification.tenancy';

/** Verification's schema, entities and migrations (the app and its admin CLI both use this). */
export const VERIFICATION_DATABASE: ServiceDatabase = {
  schema: service('verification').schema,
  entities: [Organization, ApiKey, VerificationCase, CaseStatusChange, CaseIdempotencyKey, CaseUploadToken],
  migrations: VERIFICATION_MIGRATIONS,
};
