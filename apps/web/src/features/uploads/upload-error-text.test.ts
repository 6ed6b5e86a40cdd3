import { IMAGE_MESSAGES, MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.ts';
import { translateUploadError } from './upload-error-text.ts';
import { uploadErrorMessage } from './upload-errors.ts';

const ja = i18n.getFixedT('ja');
const en = i18n.getFixedT('en');

describe('translateUploadError', () => {
  it("translates the upload texts and the server's catalogue messages, and keeps others as sent", () => {
    expect(translateUploadError(ja, MESSAGES.storageLimitExceeded)).toBe(
      'このアップロードはグループのストレージ上限を超えます。',
    );
    expect(translateUploadError(ja, IMAGE_MESSAGES.duplicateFile)).not.toBe(IMAGE_MESSAGES.duplicateFile);
    expect(translateUploadError(ja, 'HTTP Status: 502')).toBe('HTTP Status: 502');
  });

  it("says in the user's language that the storage is full (507) or unavailable (503)", () => {
    const full = uploadErrorMessage(507, JSON.stringify({ message: MESSAGES.storageFull }));
    const unavailable = uploadErrorMessage(503, JSON.stringify({ message: MESSAGES.storageUnavailable }));
    expect(translateUploadError(en, full)).toBe(MESSAGES.storageFull);
    expect(translateUploadError(ja, full)).toBe(
      'ストレージの空き容量がないため、ファイルを保存できませんでした。管理者に空き容量の確保を依頼してください。',
    );
    expect(translateUploadError(ja, unavailable)).toBe(
      'ストレージが利用できないため、ファイルを保存できませんでした。しばらくしてから再度お試しください。',
    );
  });
});
