import { sniffFileType } from './file-type';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ''), 'hex'));
const ftyp = (major: string, compat: string[]) => {
  const body = Buffer.concat([Buffer.from(major), Buffer.alloc(4), ...compat.map((c) => Buffer.from(c))]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Uint8Array.from(Buffer.concat([size, Buffer.from('ftyp'), body, Buffer.alloc(8)]));
};

describe('sniffFileType', () => {
  it.each([
    ['PDF', Uint8Array.from(Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj', 'latin1')), 'application/pdf'],
    ['JPEG (JFIF)', hex('ffd8ffe0 0010 4a464946 00'), 'image/jpeg'],
    ['JPEG (Exif)', hex('ffd8ffe1 0018 45786966 00'), 'image/jpeg'],
    ['PNG', hex('89504e470d0a1a0a 0000000d 49484452'), 'image/png'],
    [
      'WebP',
      Uint8Array.from(
        Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
      ),
      'image/webp',
    ],
    ['HEIC (iPhone)', ftyp('heic', ['mif1', 'heic']), 'image/heic'],
    ['HEIF by compatible brand', ftyp('mif1', ['miaf', 'MiHB']), 'image/heif'],
    ['HEIC by compatible brand', ftyp('mif1', ['heic']), 'image/heic'],
  ])('%s', (_name, bytes, expected) => {
    expect(sniffFileType(bytes)).toBe(expected);
  });

  it.each([
    ['empty', new Uint8Array()],
    ['truncated PNG', hex('89504e47')],
    ['a text file named passport.pdf', Uint8Array.from(Buffer.from('hello, I am a PDF, trust me'))],
    ['a GIF renamed to selfie.jpg', Uint8Array.from(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))],
    ['an EXE renamed to scan.png', hex('4d5a9000 03000000')],
    ['an MP4 (ftyp isom) renamed to photo.heic', ftyp('isom', ['iso2', 'mp41'])],
    [
      'RIFF WAVE renamed to image.webp',
      Uint8Array.from(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')),
    ],
    ['HTML with a PDF name', Uint8Array.from(Buffer.from('<html>%PDF-1.4</html>'))],
  ])('%s -> null', (_name, bytes) => {
    expect(sniffFileType(bytes)).toBeNull();
  });
});
