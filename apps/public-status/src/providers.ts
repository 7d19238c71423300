import { Transactions } from '@platform/persistence';
import { BusinessesRepository } from './catalog/businesses.unscoped.repository';
import { CatalogService } from './catalog/catalog.service';
import { ProductsRepository } from './catalog/products.repository';
import { ResourcesRepository } from './catalog/resources.repository';
import { IncidentUpdatesRepository } from './incidents/incident-updates.repository';
import { IncidentsRepository } from './incidents/incidents.repository';
import { IncidentsService } from './incidents/incidents.service';
import { MaintenanceService } from './maintenance/maintenance.service';
import { MaintenancesRepository } from './maintenance/maintenances.repository';
import { PublicFeedService } from './public/public-feed.service';
import { PublicRepository } from './public/public.unscoped.repository';
import { PublicStatusService } from './public/public-status.service';
import { ChainsService } from './status/chains.service';
import { StateHistoryRepository } from './status/state-history.repository';
import { StateService } from './status/state.service';
import { NotificationsRepository } from './subscriptions/notifications.unscoped.repository';
import { NotificationsService } from './subscriptions/notifications.service';
import { SubscribersRepository } from './subscriptions/subscribers.unscoped.repository';
import { UptimeRepository } from './uptime/uptime.repository';
import { UptimeService } from './uptime/uptime.service';

/** The status model's services and repositories: what the app and the admin CLI share. */
export const PUBLIC_STATUS_PROVIDERS = [
  Transactions,
  BusinessesRepository,
  ProductsRepository,
  ResourcesRepository,
  StateHistoryRepository,
  StateService,
  CatalogService,
  IncidentsRepository,
  IncidentUpdatesRepository,
  IncidentsService,
  MaintenancesRepository,
  MaintenanceService,
  UptimeRepository,
  UptimeService,
  ChainsService,
  PublicRepository,
  PublicStatusService,
  PublicFeedService,
  SubscribersRepository,
  NotificationsRepository,
  NotificationsService,
];
