export {
  issueApiKey,
  parseApiKey,
  verifyApiKey,
  hashApiKey,
  type IssuedApiKey,
  type ParsedApiKey,
} from './api-key';
export {
  Public,
  Authenticated,
  defineAccess,
  missingScopes,
  IS_PUBLIC,
  AUTH_SCHEMES,
  ACCESS_RULE,
  type AccessRule,
} from './access.decorators';
export { DenyByDefaultGuard } from './deny-by-default.guard';
export { auditRoutes, accessProblems, type AuditedRoute } from './route-audit';
export {
  createSessionVerifier,
  type SessionVerifier,
  type SessionVerifierOptions,
  type PlatformSession,
} from './session';
export {
  CurrentPrincipal,
  type RequestWithPrincipal,
  type Principal,
  type KeyPrincipal,
} from './principal.decorator';
export { headerValue } from './headers';
export { PublicOnlyGuard } from './public-only.guard';
