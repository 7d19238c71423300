import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { DenyByDefaultGuard, authenticateApiKey, headerValue, type RequestWithPrincipal } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { ProductKey } from '../tenancy/product-key.entity';
import { asAccountId, asProductId, type AccountId, type ProductId } from '../tenancy/tenant-ids';

export interface ProductPrincipal {
  kind: 'product';
  productId: ProductId;
  accountId: AccountId;
  keyId: string;
}

/**
 * Calendar's global guard. `product-key`: `API_KEY` + `ProductId` + `AccountId` headers; the key must be
 * live and belong to the product it claims to be.
 */
@Injectable()
export class CalendarGuard extends DenyByDefaultGuard {
  constructor(
    reflector: Reflector,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal<ProductPrincipal>>();
    if (schemes.includes('product-key')) {
      req.principal = await this.productKey(req);
      return true;
    }
    throw commonError(CommonError.UNAUTHENTICATED);
  }

  private async productKey(req: Request): Promise<ProductPrincipal> {
    const key = await authenticateApiKey(headerValue(req.headers, 'api_key'), 'API_KEY', (keyId) =>
      this.ds.getRepository(ProductKey).findOneBy({ keyId }),
    );
    const productId = headerValue(req.headers, 'productid');
    const accountId = headerValue(req.headers, 'accountid');
    if (!productId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'ProductId' });
    if (!accountId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'AccountId' });
    if (productId !== key.productId) throw commonError(CommonError.TENANT_MISMATCH, { header: 'ProductId' });
    return { kind: 'product', productId: asProductId(productId), accountId: asAccountId(accountId), keyId: key.keyId };
  }
}
