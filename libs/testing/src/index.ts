export { createTestDatabase, withClient } from './database';
export { tablesWithoutTenantPolicy, countAsTenantRoleWithoutTenant } from './tenant-isolation';
export { schemaDrift } from './schema-drift';
export { apiReferenceDrift, referenceFile, REFERENCE_DIR } from './api-reference';
export {
  scopeDenialCases,
  exemptRoutes,
  describeKeyScopeWalk,
  keyServiceWalk,
  type DenialCase,
  type KeyScopeWalk,
} from './scope-walk';
export { TopicCollector, testKafka, type ReceivedMessage } from './kafka';
export { listen, request, rawRequest, type JsonResponse, type RawResponse } from './http';
export { bodyTypeProblems, declaredBodyTypes } from './body-type-walk';
export { secretRouteProblems, secretFields, declaresNoStore, SECRET_FIELD } from './secret-routes';
export { serviceEnv, eventually } from './env';
export { spawnTsProcess, type JsonLineProcess } from './process';
export { OtlpReceiver, OtlpSpanKind, type ReceivedSpan } from './otlp-receiver';
export {
  describeRoutes,
  describeFields,
  type RouteManifestEntry,
  type FieldDescriptor,
  type FieldKind,
} from './fuzz/route-manifest';
export { readRouteManifest, routeManifestDrift, routeManifestPath } from './fuzz/manifest-file';
export { oauthTokenErrors } from './fuzz/oauth-errors';
export { davRouteCases, davErrorProblems, type DavFuzzSetup } from './fuzz/dav-cases';
export {
  runFuzz,
  casesFor,
  type FuzzTarget,
  type FuzzCase,
  type FuzzOptions,
  type FuzzReport,
  type FuzzFailure,
} from './fuzz/fuzz-harness';
