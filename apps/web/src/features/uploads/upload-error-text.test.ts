import { IMAGE_MESSAGES, MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.ts';
import { translateUploadError } from './upload-error-text.ts';

const ja = i18n.getFixedT('ja');

describe('translateUploadError', () => {
  it("translates the upload texts and the server's catalogue messages, and keeps others as sent", () => {
    expect(translateUploadError(ja, MESSAGES.storageLimitExceeded)).toBe(
      'このアップロードはグループのストレージ上限を超えます。',
    );
    expect(translateUploadError(ja, IMAGE_MESSAGES.duplicateFile)).not.toBe(IMAGE_MESSAGES.duplicateFile);
    expect(translateUploadError(ja, 'HTTP Status: 502')).toBe('HTTP Status: 502');
  });
});
