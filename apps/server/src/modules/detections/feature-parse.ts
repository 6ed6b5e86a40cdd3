import { parseDetectionFeature, type ParsedDetection } from './detection-feature.ts';

/** Features' JSON texts, as the splitter cut them from a file, and the image they must lie in: plain data for a thread. */
export interface FeatureTexts {
  texts: string[];
  size: { width: number; height: number };
}

/** Per text: the detection, the reason it is none, or null when the text is not JSON at all (the file is not GeoJSON). */
export type FeatureOutcome = ParsedDetection | string | null;

export function parseFeatureTexts({ texts, size }: FeatureTexts): FeatureOutcome[] {
  return texts.map((text) => {
    let feature: unknown;
    try {
      feature = JSON.parse(text);
    } catch {
      return null;
    }
    return parseDetectionFeature(feature, size);
  });
}
