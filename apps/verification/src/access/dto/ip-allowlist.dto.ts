import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import { MaxChars } from '@platform/envelope';

/** Most CIDR blocks an organization's IP allowlist may hold. */
export const IP_ALLOWLIST_MAX_ENTRIES = 100;

export class PutIpAllowlistRequest {
  @ApiProperty({
    type: [String],
    maxItems: IP_ALLOWLIST_MAX_ENTRIES,
    example: ['203.0.113.0/24', '2001:db8:1234::/48', '198.51.100.7'],
    description:
      'IPv4 and IPv6 CIDR blocks (a bare address is one host); empty = no restriction. Stored normalised.',
  })
  @IsArray()
  @ArrayMaxSize(IP_ALLOWLIST_MAX_ENTRIES)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  ipAllowlist: string[];
}

export class IpAllowlistResponse {
  @ApiProperty({ type: [String], example: ['203.0.113.0/24', '2001:db8:1234::/48', '198.51.100.7/32'] })
  ipAllowlist: string[];
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Null: never set' })
  updatedAt: string | null;
}
