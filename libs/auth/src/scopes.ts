import { SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import { CommonError, commonError } from '@platform/envelope';

export const REQUIRED_SCOPES = 'platform:required-scopes';

/** The key must hold every listed scope (e.g. `applications:read`). */
export const RequireScopes = (...scopes: string[]) => SetMetadata(REQUIRED_SCOPES, scopes);

/** Throws SCOPE_MISSING (403) naming the scopes the key lacks. */
export function assertScopes(
  reflector: Reflector,
  context: ExecutionContext,
  granted: readonly string[],
): void {
  const required =
    reflector.getAllAndOverride<string[] | undefined>(REQUIRED_SCOPES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? [];
  const missing = required.filter((s) => !granted.includes(s));
  if (missing.length)
    throw commonError(CommonError.SCOPE_MISSING, { scopes: missing.join(', ') }, { missingScopes: missing });
}
