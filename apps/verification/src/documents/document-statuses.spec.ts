import {
  DOCUMENT_STATUSES,
  DOCUMENT_TRANSITIONS,
  acceptedContentType,
  canMoveDocument,
  isFinalDocumentStatus,
  type DocumentStatus,
} from './document-statuses';

describe('document status machine', () => {
  it('allows exactly the documented moves', () => {
    const allowed = DOCUMENT_STATUSES.flatMap((from) =>
      DOCUMENT_TRANSITIONS[from].map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'AwaitingUpload->Uploaded',
        'AwaitingUpload->Expired',
        'Uploaded->Processing',
        'Uploaded->Rejected',
        'Processing->Accepted',
        'Processing->Rejected',
        'Processing->Uploaded',
      ].sort(),
    );
  });

  it('has Accepted, Rejected and Expired as its only final statuses', () => {
    expect(DOCUMENT_STATUSES.filter(isFinalDocumentStatus)).toEqual(['Accepted', 'Rejected', 'Expired']);
  });

  it('refuses skipping processing and reopening a final document', () => {
    const refused: [DocumentStatus, DocumentStatus][] = [
      ['AwaitingUpload', 'Accepted'],
      ['Uploaded', 'Accepted'],
      ['Accepted', 'Uploaded'],
      ['Expired', 'Uploaded'],
      ['Rejected', 'Processing'],
      ['Uploaded', 'Uploaded'],
    ];
    for (const [from, to] of refused) expect(canMoveDocument(from, to)).toBe(false);
  });

  it('names only statuses it knows as targets', () => {
    for (const targets of Object.values(DOCUMENT_TRANSITIONS))
      for (const t of targets) expect(DOCUMENT_STATUSES).toContain(t);
  });
});

describe('acceptedContentType', () => {
  it('normalises case, parameters and aliases', () => {
    expect(acceptedContentType('Image/JPG; name=a.jpg')).toBe('image/jpeg');
    expect(acceptedContentType('application/pdf')).toBe('application/pdf');
    expect(acceptedContentType('image/heic')).toBe('image/heic');
  });

  it('refuses anything else', () => {
    for (const t of ['text/html', 'application/octet-stream', 'image/svg+xml', '', undefined, null])
      expect(acceptedContentType(t)).toBeNull();
  });
});
