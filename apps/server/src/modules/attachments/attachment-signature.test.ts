import { ATTACHMENT_EXTENSIONS, type AttachmentExtension } from '@pathology/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachmentContentMatches } from './attachment-signature.ts';
import { tinyPdf } from './tiny-pdf.test-support.ts';

const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>');
const ole2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(26)]);
const csv = Buffer.from('case,organ\r\nS-1,胃\r\n');
const image = (format: 'png' | 'jpeg' | 'gif') =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#c06080' } })
    .toFormat(format)
    .toBuffer();

describe('attachmentContentMatches', () => {
  const files = {} as Record<AttachmentExtension, Buffer>;

  beforeAll(async () => {
    const [png, jpeg, gif] = await Promise.all([image('png'), image('jpeg'), image('gif')]);
    const bmp = Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(52)]);
    Object.assign(files, {
      '.pdf': tinyPdf('report'),
      '.doc': ole2,
      '.xls': ole2,
      '.ppt': ole2,
      '.docx': zip,
      '.xlsx': zip,
      '.pptx': zip,
      '.zip': zip,
      '.csv': csv,
      '.gif': gif,
      '.bmp': bmp,
      '.png': png,
      '.jpg': jpeg,
      '.jpeg': jpeg,
    });
  });

  it.each(ATTACHMENT_EXTENSIONS)('accepts what a %s file really starts with', (extension) => {
    expect(attachmentContentMatches(files[extension], extension)).toBe(true);
  });

  it.each(ATTACHMENT_EXTENSIONS)('refuses an HTML page named %s', (extension) => {
    expect(attachmentContentMatches(html, extension)).toBe(false);
  });

  it('refuses the content of another type (a PNG named .pdf, a PDF named .docx, a zip named .doc)', () => {
    expect(attachmentContentMatches(files['.png'], '.pdf')).toBe(false);
    expect(attachmentContentMatches(files['.pdf'], '.docx')).toBe(false);
    expect(attachmentContentMatches(zip, '.doc')).toBe(false);
    expect(attachmentContentMatches(files['.jpg'], '.png')).toBe(false);
  });

  it('takes a PDF header a little way in, text CSVs in UTF-16, and refuses binary as CSV', () => {
    expect(attachmentContentMatches(Buffer.concat([Buffer.from('\r\n'), tinyPdf('x')]), '.pdf')).toBe(true);
    expect(attachmentContentMatches(Buffer.from('\ufeffa,b\r\n', 'utf16le'), '.csv')).toBe(true);
    expect(attachmentContentMatches(files['.png'], '.csv')).toBe(false);
  });
});
