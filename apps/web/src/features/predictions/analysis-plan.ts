/** An image as the AI analysis start sees it (part 1 §5). */
export interface AnalysisCandidate {
  id: string;
  modelName: string | null;
  predictionSummary: readonly { modelName: string }[];
}

export type SkipReason = 'alreadyAnalyzed' | 'emptyModel';

export interface AnalysisPlan {
  eligible: { imageId: string; modelName: string }[];
  skipped: { imageId: string; reason: SkipReason }[];
}

/**
 * Which images an AI analysis starts for: those with a model (the chosen one, else their own) and no
 * prediction of that model yet; the others are skipped with their reason.
 */
export function planAnalysis(images: readonly AnalysisCandidate[], chosenModel: string | null = null): AnalysisPlan {
  const plan: AnalysisPlan = { eligible: [], skipped: [] };
  for (const image of images) {
    const modelName = chosenModel ?? image.modelName;
    if (!modelName) plan.skipped.push({ imageId: image.id, reason: 'emptyModel' });
    else if (image.predictionSummary.some((summary) => summary.modelName === modelName)) {
      plan.skipped.push({ imageId: image.id, reason: 'alreadyAnalyzed' });
    } else plan.eligible.push({ imageId: image.id, modelName });
  }
  return plan;
}
