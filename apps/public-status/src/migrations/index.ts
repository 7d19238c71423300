import { InitPublicStatus1763704000000 } from './1763704000000-init-public-status';

export const PUBLIC_STATUS_MIGRATIONS = [InitPublicStatus1763704000000];
