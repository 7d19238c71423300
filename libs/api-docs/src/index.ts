export { ApiReasons, API_REASONS } from './api-reasons.decorator';
export { upgradeTo31, upgradeSchema } from './openapi-31';
export { readCatalog, readCatalogs, CATALOG_DIR, type Catalog } from './catalog';
export {
  buildEnglishReference,
  localiseReference,
  englishTexts,
  paragraphs,
  visitTexts,
  GENERATED_TEXTS,
  ACCESS_TEXT,
  LANGUAGES,
  type ApiReferenceDefinition,
  type SchemeDoc,
  type MessageText,
} from './reference';
export { TENANT_KEY_REASONS, tenantKeyScheme, ENVELOPE_NOTE } from './common-schemes';
