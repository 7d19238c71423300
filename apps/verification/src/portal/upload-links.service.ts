import { Injectable } from '@nestjs/common';
import * as QRCode from 'qrcode';
import type { Language } from '@platform/i18n';
import { Transactions } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseMoves } from '../cases/case-moves.service';
import { UploadTokenIssuer } from '../cases/upload-token-issuer';
import { PORTAL_OPEN_STATUSES } from './link-state';
import { PortalError, portalError } from './portal.errors';
import type { UploadLinkRequest } from './dto/upload-link.request';

export interface UploadLinkView {
  url: string;
  expiresAt: string;
  language: Language | null;
  qrCode: { svg: string; pngBase64: string };
}

/** Error correction M (15%): a phone still reads the code from a slightly creased printout. */
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/**
 * `POST .../upload-link`: a fresh single-use link to the borrower portal, with its QR code. The token
 * is shown in this answer only (its hash is stored), so the QR code comes with it: a later request
 * could not rebuild it.
 */
@Injectable()
export class UploadLinksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly moves: CaseMoves,
    private readonly issuer: UploadTokenIssuer,
  ) {}

  async issue(organizationId: OrganizationId, caseId: string, body: UploadLinkRequest = {}) {
    const language = body.language ?? null;
    const link = await this.transactions.run(async (tx) => {
      // Locked: a cancel running at the same moment cannot slip between the check and the insert.
      const c = await this.moves.lock(tx, organizationId, caseId);
      if (!PORTAL_OPEN_STATUSES.includes(c.status))
        throw portalError(PortalError.UPLOAD_LINK_NOT_ALLOWED, { status: c.status });
      return this.issuer.issue(tx, organizationId, c.id, new Date(), {
        ttlHours: body.expiresInHours,
        language,
      });
    });
    const [svg, png] = await Promise.all([
      QRCode.toString(link.url, { ...QR_OPTIONS, type: 'svg' }),
      QRCode.toBuffer(link.url, { ...QR_OPTIONS, type: 'png', scale: 8 }),
    ]);
    const view: UploadLinkView = {
      url: link.url,
      expiresAt: link.expiresAt.toISOString(),
      language,
      qrCode: { svg, pngBase64: png.toString('base64') },
    };
    return view;
  }
}
