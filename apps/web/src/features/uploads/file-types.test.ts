import { describe, expect, it } from 'vitest';
import {
  CASE_IMAGE_EXTENSIONS,
  DIALOG_IMAGE_EXTENSIONS,
  extensionOf,
  isSupportedFile,
  selectFiles,
} from './file-types.ts';

const file = (name: string) => new File([''], name);

describe('file types', () => {
  it('reads the extension case-insensitively', () => {
    expect(extensionOf('Slide.SVS')).toBe('.svs');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('noext')).toBe('');
  });

  it('accepts zips, DICOM files and iSyntax only in the list dialog', () => {
    expect(isSupportedFile('a.zip', DIALOG_IMAGE_EXTENSIONS)).toBe(true);
    expect(isSupportedFile('a.zip', CASE_IMAGE_EXTENSIONS)).toBe(false);
    expect(isSupportedFile('level-0.DCM', DIALOG_IMAGE_EXTENSIONS)).toBe(true);
    expect(isSupportedFile('level-0.dcm', CASE_IMAGE_EXTENSIONS)).toBe(false);
    expect(isSupportedFile('a.ndpi', CASE_IMAGE_EXTENSIONS)).toBe(true);
    expect(isSupportedFile('a.pdf', DIALOG_IMAGE_EXTENSIONS)).toBe(false);
  });

  it('does not add a name twice', () => {
    const selection = selectFiles([file('a.svs'), file('a.svs'), file('b.txt'), file('c.tif')], CASE_IMAGE_EXTENSIONS, [
      'c.tif',
    ]);
    expect(selection.supported.map((f) => f.name)).toEqual(['a.svs']);
    expect(selection.unsupported.map((f) => f.name)).toEqual(['b.txt']);
    expect(selection.repeated.map((f) => f.name)).toEqual(['a.svs', 'c.tif']);
  });
});
