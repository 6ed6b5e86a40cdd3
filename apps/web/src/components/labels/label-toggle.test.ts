import { PRIVATE_LABEL_NAME } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  caseStarAction,
  casePublicLabelAction,
  casePublicLabelCoverage,
  distinctPublicLabels,
  imageLabelAction,
  isCaseStarred,
} from './label-toggle.ts';

const MIC = 'Microscope-#0000FF';
const star = { id: 's1', labelName: PRIVATE_LABEL_NAME };
const mic = (id: string) => ({ id, labelName: MIC });
const image = (
  overrides: Partial<{
    privateLabelled: typeof star | null;
    publicLabelleds: { id: string; labelName: string }[];
  }> = {},
) => ({
  privateLabelled: null,
  publicLabelleds: [],
  ...overrides,
});

describe('case star toggle', () => {
  it('creates the star when neither the case nor an image has it', () => {
    const item = { privateLabelled: null, publicLabelleds: [], images: [image(), image()] };
    expect(isCaseStarred(item)).toBe(false);
    expect(caseStarAction(item)).toBe('create');
  });

  it('deletes the star when the case has it', () => {
    expect(caseStarAction({ privateLabelled: star, publicLabelleds: [], images: [] })).toBe('delete');
  });

  it('deletes the star when only one image has it', () => {
    const item = { privateLabelled: null, publicLabelleds: [], images: [image(), image({ privateLabelled: star })] };
    expect(caseStarAction(item)).toBe('delete');
  });
});

describe('case public label toggle', () => {
  it('deletes when every image has the label', () => {
    const item = {
      privateLabelled: null,
      publicLabelleds: [],
      images: [image({ publicLabelleds: [mic('a')] }), image({ publicLabelleds: [mic('b')] })],
    };
    expect(casePublicLabelCoverage(item, MIC)).toBe('all');
    expect(casePublicLabelAction(item, MIC)).toBe('delete');
  });

  it('creates when only some images have it', () => {
    const item = {
      privateLabelled: null,
      publicLabelleds: [],
      images: [image({ publicLabelleds: [mic('a')] }), image()],
    };
    expect(casePublicLabelCoverage(item, MIC)).toBe('some');
    expect(casePublicLabelAction(item, MIC)).toBe('create');
  });

  it('reads the case itself when it has no images', () => {
    expect(casePublicLabelAction({ privateLabelled: null, publicLabelleds: [mic('c')], images: [] }, MIC)).toBe(
      'delete',
    );
    expect(casePublicLabelAction({ privateLabelled: null, publicLabelleds: [], images: [] }, MIC)).toBe('create');
  });

  it('creates when only the case (not its images) has it', () => {
    const item = { privateLabelled: null, publicLabelleds: [mic('c')], images: [image()] };
    expect(casePublicLabelCoverage(item, MIC)).toBe('some');
    expect(casePublicLabelAction(item, MIC)).toBe('create');
  });

  it('lists each public label once', () => {
    const item = {
      privateLabelled: null,
      publicLabelleds: [mic('c')],
      images: [image({ publicLabelleds: [mic('a'), { id: 'x', labelName: 'Badge-#000000' }] })],
    };
    expect(distinctPublicLabels(item)).toEqual([MIC, 'Badge-#000000']);
  });
});

describe('image label toggle', () => {
  it('deletes the found label by id, otherwise creates', () => {
    expect(imageLabelAction([mic('a')], MIC)).toEqual({ action: 'delete', labelId: 'a' });
    expect(imageLabelAction([], MIC)).toEqual({ action: 'create' });
  });
});
