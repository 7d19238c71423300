import { CalendarConfig } from '../config/calendar.config';
import { TenancyModule, apiKeyEntity } from '@platform/tenancy';
import { Product } from './product.entity';

/** A product's API key (`API_KEY` + `ProductId`). Its access on an account comes from grants, not scopes. */
export const ProductKey = apiKeyEntity(() => Product);

export const CalendarTenancy = TenancyModule.forService({
  keyPrefix: 'cal',
  owner: Product,
  ownerNoun: 'product',
  keyEntity: ProductKey,
  scopes: [],
  scheme: 'product-key',
  keyHeader: 'API_KEY',
  config: CalendarConfig,
  ownerHeader: 'ProductId',
});
