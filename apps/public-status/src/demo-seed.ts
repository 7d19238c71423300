import type { INestApplicationContext } from '@nestjs/common';
import { seedDemoTenant, TenancyAdminService } from '@platform/tenancy';
import { CatalogService } from './catalog/catalog.service';
import { IncidentsService } from './incidents/incidents.service';
import { asBusinessId } from './tenancy/business-id';

/**
 * Development seed: business `platform` (published) with the platform's three products published,
 * each with a published `api` and an unpublished `workers` resource, an unpublished product, a
 * resolved past incident, and an unpublished business `staging` whose product never shows. Re-running
 * it changes nothing but the demo key.
 */
export async function seedDemo(app: INestApplicationContext): Promise<Record<string, unknown>> {
  const key = await seedDemoTenant(app.get(TenancyAdminService), 'business', {
    id: 'platform',
    name: 'Platform',
  });
  const catalog = app.get(CatalogService);
  const platform = asBusinessId('platform');
  await catalog.updateBusiness(platform, { published: true });
  const products = [
    ['calendar', 'Calendar'],
    ['lending', 'Lending platform'],
    ['verification', 'Verification checks'],
  ];
  for (const [i, [slug, name]] of products.entries()) {
    await catalog.putProduct(platform, slug, { name, published: true, sortOrder: i });
    // The platform's own apps: their health reports set these resources' states (decision 0021).
    await catalog.putResource(platform, slug, 'api', { name: 'API', published: true, platformService: slug });
    await catalog.putResource(platform, slug, 'workers', { name: 'Background workers', published: false });
  }
  await catalog.putProduct(platform, 'internal-tools', {
    name: 'Internal tools',
    published: false,
    sortOrder: 9,
  });
  await catalog.putResource(platform, 'internal-tools', 'admin', { name: 'Admin console', published: true });
  const incidents = app.get(IncidentsService);
  if (!(await incidents.list(platform, 1)).length) {
    const past = await incidents.create(platform, {
      name: 'Slow calendar sync',
      impact: 'minor',
      body: 'Calendar changes take several minutes to appear.',
      components: ['calendar/api'],
      componentState: 'degraded_performance',
    });
    await incidents.resolve(platform, past.id, {
      body: 'A stuck worker was restarted; changes appear at once again.',
    });
  }
  const admin = app.get(TenancyAdminService);
  await admin.createOwner('staging', 'Staging');
  const staging = asBusinessId('staging');
  await catalog.putProduct(staging, 'calendar', { name: 'Calendar (staging)', published: true });
  await catalog.putResource(staging, 'calendar', 'api', { name: 'API', published: true });
  return key;
}
