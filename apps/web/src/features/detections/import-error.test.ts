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

describe('an import over the limits', () => {
  it('names the feature with too many points or too long a text, and the file with too many points in all', () => {
    const points = {
      message: badDetectionFeatureMessage(2, DETECTION_MESSAGES.featureTooManyVertices),
      field: 'features[2]',
    };
    expect(importFailureText(points, en)).toBe(points.message);
    expect(importFailureText(points, ja)).toBe(
      '3 番目のフィーチャー（インデックス 2）が正しくありません: ポリゴンの点が 100,000 個を超えています。',
    );
    const text = { message: badDetectionFeatureMessage(0, DETECTION_MESSAGES.featureTooLarge), field: 'features[0]' };
    expect(importFailureText(text, en)).toBe(text.message);
    expect(importFailureText(text, ja)).toBe(
      '1 番目のフィーチャー（インデックス 0）が正しくありません: GeoJSON のテキストが 16 MB を超えています。',
    );
    const file = { message: DETECTION_MESSAGES.tooManyVertices, field: 'file' };
    expect(importFailureText(file, en)).toBe(file.message);
    expect(importFailureText(file, ja)).toBe('ポリゴンの点の数が取り込みの上限を超えています。');
  });
});
