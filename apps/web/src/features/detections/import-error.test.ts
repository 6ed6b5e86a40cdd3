import { badDetectionFeatureMessage, DETECTION_MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../api/errors.ts';
import i18n from '../../i18n/index.ts';
import { importErrorText, importFailureText } from './import-error.ts';

const en = i18n.getFixedT('en');
const ja = i18n.getFixedT('ja');
const reason = DETECTION_MESSAGES.outsideImage;

describe('the bad feature of a refused import', () => {
  it('is counted from 1, with the index of features[] in the file beside it, in English and Japanese', () => {
    const failed = { message: badDetectionFeatureMessage(3, reason), field: 'features[3]' };
    expect(failed.message).toBe('Feature 4 (index 3) is not valid: its coordinates lie outside the image.');
    expect(importFailureText(failed, en)).toBe(failed.message);
    expect(importFailureText(failed, ja)).toBe(
      '4 番目のフィーチャー（インデックス 3）が正しくありません: 座標が画像の外にあります。',
    );
  });

  it('reads the same from a 422 answer', () => {
    const refused = new ValidationError(badDetectionFeatureMessage(0, reason), { 'features[0]': reason }, 422);
    expect(importErrorText(refused, en)).toBe(
      'Feature 1 (index 0) is not valid: its coordinates lie outside the image.',
    );
    expect(importErrorText(refused, ja)).toBe(
      '1 番目のフィーチャー（インデックス 0）が正しくありません: 座標が画像の外にあります。',
    );
  });
});
