export {
  ok,
  list,
  failure,
  isEnvelope,
  type Envelope,
  type ListValue,
  type FieldError,
  type ErrorValue,
} from './envelope';
export { DomainError, defineErrors, type ErrorSpec, type ErrorFactory } from './domain-error';
export { CommonError, commonError, commonErrorForStatus } from './common-errors';
export {
  RequestValidationError,
  PlatformValidationPipe,
  unknownFields,
  createValidationPipe,
  flattenValidationErrors,
  type RawFieldError,
} from './validation';
export { EnvelopeExceptionFilter } from './envelope.filter';
export { RawResponseInterceptor, RawResponse, RAW_RESPONSE } from './envelope.interceptor';
export { escapeHtml } from './html';
export { EnvelopeExpressAdapter, markRawResponse } from './envelope.adapter';
export {
  EnvelopeModule,
  configureHttpApp,
  answerUnparsableRequests,
  createHttpApp,
  runHttpMain,
  installPlatformLogger,
} from './envelope.module';
export { BodyParserError, jsonBodyParser, urlGuardMiddleware } from './json-body';
export { SHOWS_SECRET, ShowsSecret } from './shows-secret';
export {
  ACCEPTED_BODY_TYPES,
  AcceptsAnyBody,
  AcceptsAnyUntypedBody,
  UNTYPED_BODY,
  AcceptsBody,
  JSON_MEDIA_TYPES,
  bodyMediaTypeRefusal,
  carriesBody,
  isJsonMediaType,
  mediaTypeOf,
} from './body-media-type';
export {
  DEFAULT_HTTP_DRAIN,
  configureHttpDrain,
  httpDrainOf,
  startHttpDrain,
  type HttpDrainSettings,
  type HttpDrainState,
} from './http-drain';
export {
  MAX_JSON_DEPTH,
  exceedsJsonDepth,
  inspectJsonStrings,
  inspectUrl,
  isPrototypeMemberName,
} from './hostile-input';
export { installClientErrorHandler, type RenderError, type UnparsedRequest } from './client-error';
export { REQUEST_ID_HEADER, resolveRequestId, requestIdMiddleware, requestIdOf } from './request-id';
export { ApiEnvelope, ApiErrors } from './api-envelope.decorator';
export {
  INT32_MAX,
  charLength,
  MaxChars,
  MinChars,
  IntField,
  QueryInt,
  IsCalendarDate,
  IsInstant,
  IsIanaTimeZone,
  isCalendarDate,
  isInstant,
  FreeFormMap,
  type FreeFormMapLimits,
} from './fields';
