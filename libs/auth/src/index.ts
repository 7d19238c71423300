export {
  issueApiKey,
  parseApiKey,
  verifyApiKey,
  hashApiKey,
  type IssuedApiKey,
  type ParsedApiKey,
} from './api-key';
export { Public, Authenticated, IS_PUBLIC, AUTH_SCHEMES } from './access.decorators';
export { DenyByDefaultGuard } from './deny-by-default.guard';
export { auditRoutes, type AuditedRoute } from './route-audit';
export {
  createSessionVerifier,
  type SessionVerifier,
  type SessionVerifierOptions,
  type PlatformSession,
} from './session';
export { CurrentPrincipal, type RequestWithPrincipal } from './principal.decorator';
export {
  authenticateApiKey,
  authenticateTenantKey,
  headerValue,
  type StoredApiKey,
  type TenantKey,
} from './api-key.authenticator';
export { RequireScopes, assertScopes, REQUIRED_SCOPES } from './scopes';
export { PublicOnlyGuard } from './public-only.guard';
