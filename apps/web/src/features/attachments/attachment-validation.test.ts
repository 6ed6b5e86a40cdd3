import { MAX_ATTACHMENT_BYTES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { selectAttachmentFiles } from './attachment-validation.ts';

const file = (name: string, size = 10) => ({ name, size });

describe('selectAttachmentFiles', () => {
  it('accepts the supported extensions, whatever their case', () => {
    const files = [file('report.pdf'), file('Table.XLSX'), file('slides.pptx'), file('photo.JPG'), file('a.zip')];
    expect(selectAttachmentFiles(files, [])).toEqual({ accepted: files, rejected: {} });
  });

  it('refuses unsupported extensions and names without one', () => {
    const result = selectAttachmentFiles([file('notes.txt'), file('README'), file('ok.csv'), file('.pdf')], []);
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.csv']);
    expect(result.rejected.unsupported).toEqual(['notes.txt', 'README', '.pdf']);
  });

  it('refuses names the case already has, and the second of two equal names', () => {
    const result = selectAttachmentFiles([file('a.pdf'), file('b.pdf'), file('b.pdf')], ['a.pdf']);
    expect(result.accepted.map((f) => f.name)).toEqual(['b.pdf']);
    expect(result.rejected.duplicate).toEqual(['a.pdf', 'b.pdf']);
  });

  it('refuses # % ? in filenames', () => {
    const result = selectAttachmentFiles([file('a#1.pdf'), file('50%.pdf'), file('why?.pdf'), file('fine.pdf')], []);
    expect(result.rejected.forbiddenCharacters).toEqual(['a#1.pdf', '50%.pdf', 'why?.pdf']);
    expect(result.accepted).toHaveLength(1);
  });

  it('refuses files over 5 GB and empty files', () => {
    const result = selectAttachmentFiles(
      [file('big.zip', MAX_ATTACHMENT_BYTES + 1), file('edge.zip', MAX_ATTACHMENT_BYTES), file('empty.pdf', 0)],
      [],
    );
    expect(result.rejected.tooLarge).toEqual(['big.zip']);
    expect(result.rejected.empty).toEqual(['empty.pdf']);
    expect(result.accepted.map((f) => f.name)).toEqual(['edge.zip']);
  });

  it('counts a file under its first failing check only', () => {
    const result = selectAttachmentFiles([file('x#.txt'), file('dup#.pdf')], ['dup#.pdf']);
    expect(result.rejected).toEqual({ unsupported: ['x#.txt'], duplicate: ['dup#.pdf'] });
  });
});
