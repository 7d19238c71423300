import { fileFromMultipart } from './report-upload';

const CT = 'multipart/form-data; boundary=----WebKitFormBoundaryX1';
const part = (headers: string, body: Buffer | string) =>
  Buffer.concat([
    Buffer.from(`------WebKitFormBoundaryX1\r\n${headers}\r\n\r\n`),
    Buffer.from(body),
    Buffer.from('\r\n'),
  ]);

describe('multipart upload of the public check form', () => {
  it('takes the bytes of the file part exactly, binary included', () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x0d, 0x0a, 0x00, 0xff, 0x2d, 0x2d]);
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="note"', 'hello'),
      part(
        'Content-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf',
        pdf,
      ),
      Buffer.from('------WebKitFormBoundaryX1--\r\n'),
    ]);
    expect(fileFromMultipart(body, CT).equals(pdf)).toBe(true);
  });

  it('refuses a body without a file part or without a boundary', () => {
    const noFile = Buffer.concat([
      part('Content-Disposition: form-data; name="note"', 'hello'),
      Buffer.from('------WebKitFormBoundaryX1--\r\n'),
    ]);
    expect(() => fileFromMultipart(noFile, CT)).toThrow('MALFORMED');
    expect(() => fileFromMultipart(noFile, 'multipart/form-data')).toThrow('MALFORMED');
    expect(() => fileFromMultipart(Buffer.from('garbage'), CT)).toThrow('MALFORMED');
  });
});
