import type { Organ, SpecimenType } from '@pathology/contract';
import type { CaseKind } from './demo-groups.ts';
import type { Random } from './random.ts';

export interface CaseText {
  diagnosis: string;
  grossFindings: string;
  microscopicFindings: string;
}

/** One kind of specimen a lab sees; `write` varies sizes, grades and counts so no two cases read alike. */
export interface CaseTemplate {
  organ: Organ;
  specimenType: SpecimenType;
  kind: CaseKind;
  sex: 'female' | 'male' | 'any';
  ages: readonly [number, number];
  history: string;
  write(r: Random): CaseText;
}

/** "2.3 x 1.8 x 1.1 cm" with the largest dimension first. */
export function dimensions(r: Random, min: number, max: number): string {
  return [r.float(min, max), r.float(min, max), r.float(min, max)]
    .sort((a, b) => b - a)
    .map((n) => n.toFixed(1))
    .join(' x ');
}
