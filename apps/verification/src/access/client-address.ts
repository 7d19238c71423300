/**
 * The caller's address for the IP allowlist and the default `TRUSTED_PROXIES` (loopback and the
 * private ranges a cluster's gateway pods live in): one implementation for every service behind the
 * gateway, in libs/network (decision 0013).
 */
export {
  CLUSTER_TRUSTED_PROXIES as DEFAULT_TRUSTED_PROXIES,
  clientAddress,
  trustedProxies,
} from '@platform/network';
