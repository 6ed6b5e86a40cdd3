import { describe, expect, it } from 'vitest';
import { overallProgress } from './bulk-progress.ts';

describe('overallProgress', () => {
  it('weighs each file by its size, so a large file half sent outweighs a small one done', () => {
    const items = [
      { size: 900, uploadProgress: 0.5, status: 'uploading' as const },
      { size: 100, uploadProgress: 1, status: 'uploaded' as const },
    ];
    expect(overallProgress(items)).toBeCloseTo(0.55);
  });

  it('is 0 for no files and 1 once empty files are all uploaded', () => {
    expect(overallProgress([])).toBe(0);
    expect(overallProgress([{ size: 0, uploadProgress: 1, status: 'uploaded' }])).toBe(1);
  });
});
