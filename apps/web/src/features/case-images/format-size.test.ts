import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format-size.ts';

describe('formatFileSize', () => {
  it('shows bytes below 1 KB as whole bytes', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1)).toBe('1 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });

  it('uses binary units with at most one decimal', () => {
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(2_222_981)).toBe('2.1 MB');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5 GB');
  });

  it('moves up a unit instead of showing 1024 of one', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
  });

  it('stops at GB', () => {
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3072 GB');
  });

  it('shows nonsense input as 0 B', () => {
    expect(formatFileSize(-5)).toBe('0 B');
    expect(formatFileSize(Number.NaN)).toBe('0 B');
  });
});
