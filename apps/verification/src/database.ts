import { Organization } from '@platform/tenancy';
import type { ServiceDatabase } from '@platform/persistence';
import { service } from '@platform/registry';
import { IdempotencyKey } from '@platform/idempotency';
import { CaseStatusChange } from './cases/case-status-change.entity';
import { CaseUploadToken } from './cases/case-upload-token.entity';
import { VerificationCase } from './cases/verification-case.entity';
import { CheckStep } from './checks/check-step.entity';
import { Document } from './documents/document.entity';
import { DocumentStatusChange } from './documents/document-status-change.entity';
import { VERIFICATION_MIGRATIONS } from './migrations';
import { ReportIssuance } from './reports/report-issuance.entity';
import { CaseSummary } from './summary/case-summary.entity';
import { ReviewTask } from './review/review-task.entity';
import { ReviewTaskComment } from './review/review-task-comment.entity';
import { ReviewTaskStatusChange } from './review/review-task-status-change.entity';
import { ProviderSession } from './providers/provider-session.entity';
import { ApiKey } from './tenancy/verification.tenancy';
import { ActivityEntry } from './access/activity-entry.entity';
import { OAuthToken } from './access/oauth-token.entity';
import { OrganizationSettings } from './access/organization-settings.entity';

/** Verification's schema, entities and migrations (the app and its admin CLI both use this). */
export const VERIFICATION_DATABASE: ServiceDatabase = {
  schema: service('verification').schema,
  entities: [
    Organization,
    ApiKey,
    VerificationCase,
    CaseStatusChange,
    IdempotencyKey,
    CaseUploadToken,
    Document,
    DocumentStatusChange,
    CheckStep,
    ProviderSession,
    OrganizationSettings,
    OAuthToken,
    ActivityEntry,
    ReportIssuance,
    CaseSummary,
    ReviewTask,
    ReviewTaskComment,
    ReviewTaskStatusChange,
  ],
  migrations: VERIFICATION_MIGRATIONS,
};
