import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition.ts';

describe('attachmentDisposition', () => {
  it('gives plain names as they are in both forms', () => {
    expect(attachmentDisposition('slide-1.svs')).toBe(
      `attachment; filename="slide-1.svs"; filename*=UTF-8''slide-1.svs`,
    );
  });

  it('never lets quotes, backslashes or line breaks into the quoted name', () => {
    const header = attachmentDisposition('a"b\\c\r\nd.svs');
    expect(header).toBe(`attachment; filename="a_b_c__d.svs"; filename*=UTF-8''a%22b%5Cc%0D%0Ad.svs`);
  });

  it('encodes non-ASCII as UTF-8 and falls back to a neutral name when nothing ASCII is left', () => {
    expect(attachmentDisposition('標本')).toBe(`attachment; filename="download"; filename*=UTF-8''%E6%A8%99%E6%9C%AC`);
  });

  it('survives a lone surrogate instead of throwing', () => {
    expect(attachmentDisposition('a\ud800.svs')).toContain(`filename*=UTF-8''a%EF%BF%BD.svs`);
  });
});
