import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** The credential headers of a verification route: the API key, or a bearer token instead. */
export const ApiVerificationCredentials = () =>
  applyDecorators(
    ApiHeader({
      name: 'X-API-Key',
      required: false,
      description: 'An API key (or send Authorization: Bearer)',
    }),
    ApiHeader({
      name: 'Service-Organization-Id',
      required: false,
      description: 'Your organization: the owner of the key (required with X-API-Key)',
    }),
    ApiHeader({
      name: 'Authorization',
      required: false,
      description: 'Bearer <token> from POST /api/v1/oauth/token, instead of X-API-Key',
    }),
    ApiHeader({
      name: 'Accept-Language',
      required: false,
      description: 'Language of the `error` text (`Language-Code` also works)',
    }),
  );
