import { describe, expect, it } from 'vitest';
import { planAnalysis } from './analysis-plan.ts';

describe('planAnalysis', () => {
  const images = [
    { id: 'a', modelName: 'others', predictionSummary: [] },
    { id: 'b', modelName: null, predictionSummary: [] },
    { id: 'c', modelName: 'others', predictionSummary: [{ modelName: 'others' }] },
    { id: 'd', modelName: 'colon-biopsy', predictionSummary: [{ modelName: 'others' }] },
  ];

  it("starts images with their own model and no prediction of it, and skips the rest with the spec's reasons", () => {
    expect(planAnalysis(images)).toEqual({
      eligible: [
        { imageId: 'a', modelName: 'others' },
        { imageId: 'd', modelName: 'colon-biopsy' },
      ],
      skipped: [
        { imageId: 'b', reason: 'emptyModel' },
        { imageId: 'c', reason: 'alreadyAnalyzed' },
      ],
    });
  });

  it('uses a chosen model for every image', () => {
    const plan = planAnalysis(images, 'others');
    expect(plan.eligible.map((entry) => entry.imageId)).toEqual(['a', 'b']);
    expect(plan.skipped).toEqual([
      { imageId: 'c', reason: 'alreadyAnalyzed' },
      { imageId: 'd', reason: 'alreadyAnalyzed' },
    ]);
  });
});
