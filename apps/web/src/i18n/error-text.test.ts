import { MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { AuthError, HttpError, TimeoutError } from '../api/errors.ts';
import { errorText } from './error-text.ts';
import i18n from './index.ts';

const ja = i18n.getFixedT('ja');
const en = i18n.getFixedT('en');

describe('errorText', () => {
  it('translates the fixed server messages', () => {
    expect(errorText(new HttpError('Unexpected error', 500, undefined), en)).toBe('Unexpected error');
    expect(errorText(new HttpError('Unexpected error', 500, undefined), ja)).toBe('予期しないエラーが発生しました');
    expect(errorText('This field is required', ja)).toBe('この項目は必須です');
  });

  it('translates the form messages of part 3 §5, the length limit with its number', () => {
    expect(errorText('This field must be a valid email address', ja)).toBe('有効なメールアドレスを入力してください');
    expect(errorText('This field must be at most 100 characters', ja)).toBe('100 文字以内で入力してください');
    expect(errorText('This field must be at most 100 characters', en)).toBe(
      'This field must be at most 100 characters',
    );
    expect(errorText("This upload would exceed the group's storage limit.", ja)).toBe(
      'このアップロードはグループのストレージ上限を超えます。',
    );
  });

  it('translates why a drawing was refused', () => {
    expect(errorText(new Error(MESSAGES.drawingOutsideImage), ja)).toBe(
      '描画が画像の外側に離れすぎています。画像の端から画像の大きさ以内に収めてください。',
    );
  });

  it('says "Not found" for a 404, not the internal marker', () => {
    expect(errorText(new AuthError(), en)).toBe('Not found');
  });

  it('shows any other server message as sent', () => {
    expect(errorText(new Error('Duplicate file'), ja)).toBe('Duplicate file');
  });

  it('explains timeouts and unknown throwables', () => {
    expect(errorText(new TimeoutError(20_000), en)).toBe('The server took too long to answer. Please try again.');
    expect(errorText({ weird: true }, en)).toBe('Unexpected error');
  });
});
