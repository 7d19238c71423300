import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { CommonError, commonError } from '@platform/envelope';
import { GatewayConfig } from '../config/gateway.config';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The reference is open in development and closed in production (`DOCS_ACCESS`): closed, it needs the
 * `DOCS_LOGIN` credentials by HTTP Basic, so a browser asks for them; without `DOCS_LOGIN` nobody gets in.
 */
@Injectable()
export class DocsAccessGuard implements CanActivate {
  private readonly open: boolean;
  private readonly expected?: Buffer;

  constructor(cfg: GatewayConfig) {
    this.open = cfg.DOCS_ACCESS === 'open' || (cfg.DOCS_ACCESS === 'auto' && cfg.NODE_ENV !== 'production');
    this.expected = cfg.DOCS_LOGIN ? digest(cfg.DOCS_LOGIN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.open) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers.authorization ?? '';
    const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
    const presented = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    // Hashes of equal length, compared in constant time: neither length nor content leaks.
    if (this.expected && presented && timingSafeEqual(digest(presented), this.expected)) return true;
    throw commonError(CommonError.DOCS_LOGIN_REQUIRED).withHeaders({
      'WWW-Authenticate': 'Basic realm="API reference", charset="UTF-8"',
    });
  }
}
