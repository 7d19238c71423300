import { runAdminCli } from '@platform/persistence';
import { PUBLIC_STATUS_ENTITIES } from './app.module';
import { PublicStatusConfig } from './config/public-status.config';
import { PUBLIC_STATUS_MIGRATIONS } from './migrations';
import { StatusProduct } from './products/status-product.entity';

void runAdminCli({
  service: 'public-status',
  config: PublicStatusConfig,
  entities: PUBLIC_STATUS_ENTITIES,
  migrations: PUBLIC_STATUS_MIGRATIONS,
  commands: {
    'publish-product': {
      usage: '<id> <name>          show a product on the public page',
      run: async (ds, [id, name]) => {
        await ds.getRepository(StatusProduct).upsert({ id, name: name ?? id, published: true }, ['id']);
        return ds.getRepository(StatusProduct).findOneByOrFail({ id });
      },
    },
    'unpublish-product': {
      usage: '<id>',
      run: async (ds, [id]) => ({
        unpublished:
          ((await ds.getRepository(StatusProduct).update({ id }, { published: false })).affected ?? 0) > 0,
      }),
    },
    'seed-demo': {
      usage: '                  development only: publish the platform products',
      run: async (ds, _args, cfg) => {
        if (cfg.NODE_ENV === 'production') throw new Error('seed-demo refuses to run in production');
        const products = [
          { id: 'calendar', name: 'Calendar', published: true },
          { id: 'lending', name: 'Lending platform', published: true },
          { id: 'verification', name: 'Verification checks', published: true },
        ];
        await ds.getRepository(StatusProduct).upsert(products, ['id']);
        return { published: products.map((p) => p.id) };
      },
    },
  },
});
