import { contentDisposition, displayFileName, sniffContentType } from './document-files';

describe('document files', () => {
  it('recognises PDF, PNG and JPEG by their first bytes only', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('MZ\x90\x00\x03\x00\x00\x00'))).toBeUndefined(); // an .exe
    expect(sniffContentType(Buffer.from('<html><body>'))).toBeUndefined();
    expect(sniffContentType(Buffer.from(' %PDF-1.7'))).toBeUndefined();
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined(); // too short to tell
  });

  it('keeps only a safe last segment of the client name', () => {
    expect(displayFileName('../../etc/passwd', 'application/pdf')).toBe('passwd');
    expect(displayFileName('C:\\Users\\a\\scan.png', 'image/png')).toBe('scan.png');
    expect(displayFileName('..', 'image/png')).toBe('document.png');
    expect(displayFileName('.htaccess', 'image/png')).toBe('htaccess');
    expect(displayFileName('pass"port\r\n.pdf', 'application/pdf')).toBe('passport.pdf');
    expect(displayFileName(undefined, 'image/jpeg')).toBe('document.jpg');
    expect(displayFileName('паспорт.pdf', 'application/pdf')).toBe('паспорт.pdf');
    expect([...displayFileName('😀'.repeat(300), 'image/png')]).toHaveLength(200);
  });

  it('sends the name as an ASCII fallback and RFC 8187 UTF-8, nothing that could end the header', () => {
    expect(contentDisposition('паспорт 1.pdf')).toBe(
      `attachment; filename="_______ 1.pdf"; filename*=UTF-8''%D0%BF%D0%B0%D1%81%D0%BF%D0%BE%D1%80%D1%82%201.pdf`,
    );
    expect(contentDisposition("a'b(c)%.pdf")).toBe(
      `attachment; filename="a'b(c)_.pdf"; filename*=UTF-8''a%27b%28c%29%25.pdf`,
    );
  });
});
