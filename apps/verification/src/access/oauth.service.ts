import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { headerValue, type KeyPrincipal } from '@platform/auth';
import { CommonError, DomainError, commonError } from '@platform/envelope';
import { KeyAuthenticator, asOrganizationId } from '@platform/tenancy';
import { VerificationConfig } from '../config/verification.config';
import { VERIFICATION_SCOPES, type OrganizationPrincipal } from '../tenancy/scopes';
import { AccessError, accessError } from './access.errors';
import { IpAllowlistService } from './ip-allowlist.service';
import { OAuthTokenLookupRepository } from './oauth-token-lookup.unscoped.repository';
import { OAuthTokensRepository } from './oauth-tokens.repository';
import { isFailure, oauthFailure, parseTokenRequest, type OAuthFailure } from './oauth-request';

export const TOKEN_PREFIX = 'vat_';
const TOKEN = /^vat_[A-Za-z0-9_-]{43}$/;
const DAY = 86_400_000;
const ORG_HEADER = 'Service-Organization-Id';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** 401 answers of a protected route carry the RFC 6750 challenge. */
const bearerError = (code: AccessError) =>
  accessError(code).withHeaders({ 'WWW-Authenticate': 'Bearer realm="verification", error="invalid_token"' });

/**
 * OAuth 2.0 client credentials over the organization's API keys (docs/verification/access.md): the
 * client is the organization, its secret an API key; the token is opaque, stored as a hash, carries a
 * subset of the key's scopes and dies with the key.
 */
@Injectable()
export class OAuthService {
  constructor(
    private readonly config: VerificationConfig,
    private readonly keys: KeyAuthenticator,
    private readonly tokens: OAuthTokensRepository,
    private readonly tokenLookup: OAuthTokenLookupRepository,
    private readonly allowlist: IpAllowlistService,
  ) {}

  async exchange(input: {
    authorization: string | undefined;
    contentType: string | undefined;
    form: string | undefined;
    address: string | undefined;
  }): Promise<TokenAnswer> {
    const parsed = parseTokenRequest(input);
    if (isFailure(parsed)) return parsed;
    // No organization id holds a control character or a lone surrogate (PostgreSQL refuses NUL in text):
    // such a client is unknown, answered like any other unknown client.
    if (!plausibleClientId(parsed.clientId)) return this.clientRefused();
    const organizationId = asOrganizationId(parsed.clientId);
    if (!(await this.allowlist.allows(organizationId, input.address))) {
      const refused = oauthFailure(
        'unauthorized_client',
        "This address is not in the organization's IP allowlist.",
        403,
      );
      return { ...refused, body: { ...refused.body, reason: AccessError.IP_NOT_ALLOWED } };
    }
    let key: KeyPrincipal;
    try {
      key = await this.keys.authenticate({
        'x-api-key': parsed.clientSecret,
        'service-organization-id': parsed.clientId,
      });
    } catch (err) {
      if (err instanceof DomainError) return this.clientRefused();
      throw err;
    }
    if (!key.scopes.length)
      return oauthFailure('unauthorized_client', 'The API key holds no permission area to grant.');
    const beyond = (parsed.scope ?? []).filter((s) => !key.scopes.includes(s));
    if (beyond.length)
      return oauthFailure('invalid_scope', `The API key does not hold: ${beyond.join(' ')}.`);
    const granted = VERIFICATION_SCOPES.filter((s) => (parsed.scope ?? key.scopes).includes(s));
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = new Date();
    await this.tokens.purgeExpired(organizationId, new Date(now.getTime() - DAY));
    await this.tokens.add(organizationId, {
      tokenHash: sha256(token),
      keyId: key.keyId,
      scopes: granted,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + this.config.OAUTH_TOKEN_TTL_SECONDS * 1000),
    });
    return {
      status: 200,
      body: {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.config.OAUTH_TOKEN_TTL_SECONDS,
        scope: granted.join(' '),
      },
      headers: {},
    };
  }

  /**
   * A protected route's bearer token: known, the caller's address allowed by its organization, not
   * expired, its key still live; its scopes are those granted that the key still holds.
   */
  async authenticate(
    token: string,
    headers: Record<string, string | string[] | undefined>,
    address: string | undefined,
    now = new Date(),
  ): Promise<OrganizationPrincipal> {
    const found = TOKEN.test(token) ? await this.tokenLookup.findWithKey(sha256(token)) : null;
    if (!found) throw bearerError(AccessError.BEARER_TOKEN_INVALID);
    await this.allowlist.enforce(found.organizationId, address);
    if (found.expiresAt <= now) throw bearerError(AccessError.BEARER_TOKEN_EXPIRED);
    if (found.keyRevokedAt || (found.keyExpiresAt && found.keyExpiresAt <= now))
      throw bearerError(AccessError.BEARER_TOKEN_REVOKED);
    const owner = headerValue(headers, ORG_HEADER);
    if (owner !== undefined && owner !== found.organizationId)
      throw commonError(CommonError.TENANT_MISMATCH, { header: ORG_HEADER });
    return {
      kind: 'key',
      scheme: 'oauth',
      ownerId: found.organizationId,
      keyId: found.keyId,
      scopes: VERIFICATION_SCOPES.filter((s) => found.scopes.includes(s) && found.keyScopes.includes(s)),
      isDefault: false,
    };
  }

  private clientRefused(): OAuthFailure {
    return oauthFailure('invalid_client', 'Client authentication failed.');
  }
}

/** A client_id that could name an organization: 1..200 characters, no control character, well formed. */
export const plausibleClientId = (id: string): boolean =>
  id.length > 0 &&
  id.length <= 200 &&
  id.isWellFormed() &&
  ![...id].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
