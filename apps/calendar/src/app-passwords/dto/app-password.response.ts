import { ApiProperty } from '@nestjs/swagger';

/** An app password as listed: never its secret. */
export class AppPasswordResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'iPhone' }) label: string;
  @ApiProperty({
    example: 'dav-3f9c2a7e51b04d68a1c2',
    description: 'The username a CalDAV client signs in with (HTTP Basic)',
  })
  username: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'Last successful sign-in, to the minute; null when never used',
  })
  last_used_at: string | null;
}

/** A new app password: the only answer that ever shows its password. */
export class CreatedAppPasswordResponse extends AppPasswordResponse {
  @ApiProperty({
    example: 'Xq0Z7m3kP9vB2nR8tL4wY6cF1hJ5sD0a',
    description: 'The password, shown this once: only its hash is kept',
  })
  password: string;
  @ApiProperty({
    example: 'https://platform.example.com/dav/',
    description: 'The CalDAV address to enter in the client, with the username and password',
  })
  caldav_url: string;
}

/** A revoked app password: it no longer signs in, from the next request on. */
export class RevokedAppPasswordResponse extends AppPasswordResponse {
  @ApiProperty({ format: 'date-time' }) revoked_at: string;
}
