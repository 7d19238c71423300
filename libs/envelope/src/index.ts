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
  createValidationPipe,
  flattenValidationErrors,
  type RawFieldError,
} from './validation';
export { EnvelopeExceptionFilter } from './envelope.filter';
export { EnvelopeInterceptor, RawResponse } from './envelope.interceptor';
export {
  EnvelopeModule,
  configureHttpApp,
  createHttpApp,
  runHttpMain,
  BodyParserError,
} from './envelope.module';
export { REQUEST_ID_HEADER, resolveRequestId, requestIdMiddleware, requestIdOf } from './request-id';
export { ApiEnvelope, ApiErrors } from './api-envelope.decorator';
