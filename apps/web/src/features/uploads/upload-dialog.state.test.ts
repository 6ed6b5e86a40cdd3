import { describe, expect, it } from 'vitest';
import { uploadKindsOf } from './file-types.ts';
import { addFiles, checkCase, forceFlags, initialDialogState, setCase, setFileKind } from './upload-dialog.state.ts';

const file = (name: string) => new File(['x'], name);

describe('image or attachment (part 1 §5)', () => {
  it('knows what each type may become: a PDF only an attachment, a JPEG or zip either, a slide only an image', () => {
    expect(uploadKindsOf('report.pdf')).toEqual(['attachment']);
    expect(uploadKindsOf('photo.JPG')).toEqual(['image', 'attachment']);
    expect(uploadKindsOf('scan.zip')).toEqual(['image', 'attachment']);
    expect(uploadKindsOf('slide.svs')).toEqual(['image']);
    expect(uploadKindsOf('notes.txt')).toEqual([]);
  });

  it('forces a PDF to be an attachment, and a JPEG to what the user chose', () => {
    let state = initialDialogState();
    const caseKey = state.cases[0]!.key;
    state = addFiles(state, caseKey, [file('report.pdf'), file('photo.jpg'), file('slide.svs')]);
    const [pdf, jpeg, slide] = state.files;
    expect(forceFlags(pdf!)).toEqual({ forceAttachment: true, forceImage: false });
    expect(forceFlags(jpeg!)).toEqual({ forceAttachment: false, forceImage: true });
    expect(forceFlags(slide!)).toEqual({ forceAttachment: false, forceImage: false });

    state = setFileKind(state, jpeg!.key, 'attachment');
    expect(forceFlags(state.files[1]!)).toEqual({ forceAttachment: true, forceImage: false });
    // A slide cannot become an attachment.
    state = setFileKind(state, slide!.key, 'attachment');
    expect(state.files[2]!.kind).toBe('image');
  });

  it("checks only images against the case's image names and the image count", () => {
    let state = initialDialogState();
    const caseKey = state.cases[0]!.key;
    state = setCase(state, caseKey, {
      caseNumber: 'C-1',
      match: { id: 'c1', caseNumber: 'C-1', filenames: ['photo.jpg'], imageCount: 1 },
    });
    state = addFiles(state, caseKey, [file('photo.jpg')]);
    expect(checkCase(state, state.cases[0]!, 1).duplicates.size).toBe(1);
    state = setFileKind(state, state.files[0]!.key, 'attachment');
    const check = checkCase(state, state.cases[0]!, 1);
    expect(check.duplicates.size).toBe(0);
    expect(check.exceedsMax).toBe(false);
    expect(check.uploadable).toHaveLength(1);
  });
});
