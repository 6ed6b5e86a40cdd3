import { describe, expect, it } from 'vitest';
import { HttpError, TimeoutError } from '../api/errors.ts';
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

  it('shows any other server message as sent', () => {
    expect(errorText(new Error('Duplicate file'), ja)).toBe('Duplicate file');
  });

  it('explains timeouts and unknown throwables', () => {
    expect(errorText(new TimeoutError(20_000), en)).toBe('The server took too long to answer. Please try again.');
    expect(errorText({ weird: true }, en)).toBe('Unexpected error');
  });
});
