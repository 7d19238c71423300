/**
 * File type by magic bytes only. The file name and any declared content type are deliberately not
 * parameters: the caller cannot make this function trust them.
 */
export type SniffedFileType =
  'application/pdf' | 'image/jpeg' | 'image/png' | 'image/heic' | 'image/heif' | 'image/webp';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// ISO/IEC 23008-12 (HEIF) brands: HEVC-coded images are HEIC; the structural brands are plain HEIF.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif']);

function startsWith(bytes: Uint8Array, sig: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + sig.length) return false;
  return sig.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function sniffFtyp(bytes: Uint8Array): SniffedFileType | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  const end = Math.min(boxSize >= 16 ? boxSize : 16, bytes.length);
  // Major brand at 8..12, minor version at 12..16, then compatible brands four bytes each.
  const brands = [ascii(bytes, 8, 12)];
  for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
  if (brands.some((b) => HEIF_BRANDS.has(b))) return 'image/heif';
  return null;
}

/** Returns the detected type or null when the bytes match none of the accepted formats. */
export function sniffFileType(bytes: Uint8Array): SniffedFileType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // "%PDF-"
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  return sniffFtyp(bytes);
}
