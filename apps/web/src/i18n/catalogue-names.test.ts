import {
  AI_MODELS,
  AI_ORGANS,
  CONTRACT_PLANS,
  DEFAULT_NEGATIVE_LABEL,
  GROUP_ROLES,
  ORGANS,
  SPECIMEN_TYPES,
  negativeLabelOf,
} from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { catalogueName, type CatalogueGroup } from './catalogue-names.ts';
import { LANGUAGES, resources } from './index.ts';

/** Every label a catalogue model can report, and the negative ones shown for cells it finds nothing in. */
const AI_LABELS = [
  ...new Set([
    ...AI_MODELS.flatMap((model) => [...model.classification, negativeLabelOf(model)]),
    DEFAULT_NEGATIVE_LABEL,
  ]),
];

const CATALOGUES: [CatalogueGroup, readonly string[]][] = [
  ['organs', [...ORGANS, ...AI_ORGANS]],
  ['models', AI_MODELS.map((model) => model.modelName)],
  ['aiLabels', AI_LABELS],
  ['plans', CONTRACT_PLANS],
];

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

describe('catalogue display names', () => {
  for (const [group, values] of CATALOGUES) {
    it(`names every ${group} value in Japanese and English`, () => {
      for (const value of values) {
        for (const language of LANGUAGES) {
          const names: Record<string, string> = resources[language].translation.catalogue[group];
          expect(Object.hasOwn(names, value), `${group} ${value} in ${language}`).toBe(true);
        }
      }
    });
  }

  it('shows the catalogue’s own English names in English', () => {
    for (const model of AI_MODELS) expect(catalogueName('models', model.modelName, 'en')).toBe(model.displayName);
    for (const organ of ORGANS) expect(catalogueName('organs', organ, 'en')).toBe(organ);
  });

  it('writes Japanese names in Japanese script, bar the international abbreviations pathologists use as is', () => {
    const untranslated = CATALOGUES.flatMap(([group, values]) =>
      values.filter((value) => !JAPANESE.test(catalogueName(group, value, 'ja'))),
    );
    expect(untranslated.sort()).toEqual(['ASC-H', 'ASC-US', 'DCIS', 'HSIL', 'IPMN', 'LSIL', 'NILM', 'PanIN']);
  });

  it('names the built-in model, its label and the contract plans of the issue in Japanese', () => {
    expect(catalogueName('models', 'others', 'ja')).toBe('核密度 (全臓器)');
    expect(catalogueName('aiLabels', 'High nuclear density', 'ja')).toBe('高核密度');
    expect(catalogueName('aiLabels', 'Non-neoplastic lesion', 'ja')).toBe('非腫瘍性病変');
    expect(catalogueName('plans', 'enterprise', 'ja')).toBe('エンタープライズ');
    expect(catalogueName('plans', 'provider', 'ja')).toBe('プロバイダー');
    expect(catalogueName('organs', 'Uterine Cervix', 'ja')).toBe('子宮頸部');
  });

  it('shows a value it does not know as it is stored', () => {
    expect(catalogueName('aiLabels', 'Operator label', 'ja')).toBe('Operator label');
    expect(catalogueName('plans', 'pilot', 'ja')).toBe('pilot');
  });

  it('has Japanese and English names for the other user-visible enums', () => {
    for (const language of LANGUAGES) {
      const translation = resources[language].translation;
      for (const type of SPECIMEN_TYPES) expect(translation.caseList.specimenTypes[type]).toBeTruthy();
      for (const role of GROUP_ROLES) expect(translation.groupAdmin.roles[role]).toBeTruthy();
    }
  });
});
