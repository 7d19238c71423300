import { runAdminCli } from '@platform/persistence';
import { PublicStatusConfig } from './config/public-status.config';
import { PUBLIC_STATUS_DATABASE } from './database';
import { ProductsRepository } from './products/products.repository';
import { ProductsService } from './products/products.service';

void runAdminCli({
  service: 'public-status',
  config: PublicStatusConfig,
  database: PUBLIC_STATUS_DATABASE,
  providers: [ProductsService, ProductsRepository],
  commands: {
    'publish-product': {
      usage: '<id> <name>          show a product on the public page',
      run: (app, [id, name]) => app.get(ProductsService).publish(id, name ?? id),
    },
    'unpublish-product': {
      usage: '<id>',
      run: async (app, [id]) => ({ unpublished: await app.get(ProductsService).unpublish(id) }),
    },
    'seed-demo': {
      usage: '                  development only: publish the platform products',
      run: async (app, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        const published = await app.get(ProductsService).publishAll([
          { id: 'calendar', name: 'Calendar' },
          { id: 'lending', name: 'Lending platform' },
          { id: 'verification', name: 'Verification checks' },
        ]);
        return { published };
      },
    },
  },
});
