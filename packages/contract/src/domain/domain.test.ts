import { describe, expect, it } from 'vitest';
import { AI_MODELS, AiModelSchema, aiModelsForOrgan, findAiModel, negativeLabelOf } from './ai-models.ts';
import { LabelInputSchema, PRIVATE_LABEL_NAME, PUBLIC_LABEL_NAMES, formatLabelName, parseLabelName } from './labels.ts';
import { AI_ORGANS, ORGANS } from './organs.ts';
import { roleAtLeast } from './roles.ts';

describe('label names', () => {
  it('splits icon and colour', () => {
    expect(parseLabelName('Microscope-#8B0000')).toEqual({ icon: 'Microscope', color: '#8B0000' });
    expect(parseLabelName(PRIVATE_LABEL_NAME)).toEqual({ icon: 'Star', color: '#FFD700' });
    expect(parseLabelName('CheckDottedCircle-#0000ff')).toEqual({ icon: 'CheckDottedCircle', color: '#0000FF' });
  });

  it('rejects names without a colour', () => {
    expect(parseLabelName('Microscope')).toBeNull();
    expect(parseLabelName('-#000000')).toBeNull();
    expect(parseLabelName('Badge-#12345')).toBeNull();
  });

  it('round-trips through formatLabelName', () => {
    for (const name of PUBLIC_LABEL_NAMES) {
      const parsed = parseLabelName(name);
      expect(parsed).not.toBeNull();
      if (parsed) expect(formatLabelName(parsed.icon, parsed.color)).toBe(name);
    }
    expect(PUBLIC_LABEL_NAMES).toHaveLength(24);
  });

  it('accepts only the star as a private label and only catalogue names as public ones', () => {
    expect(LabelInputSchema.safeParse({ visibilityType: 'private', labelName: PRIVATE_LABEL_NAME }).success).toBe(true);
    expect(LabelInputSchema.safeParse({ visibilityType: 'private', labelName: 'Badge-#000000' }).success).toBe(false);
    expect(LabelInputSchema.safeParse({ visibilityType: 'public', labelName: 'Badge-#000000' }).success).toBe(true);
    expect(LabelInputSchema.safeParse({ visibilityType: 'public', labelName: 'Badge-#123456' }).success).toBe(false);
  });
});

describe('organs and AI models', () => {
  it('has about 70 unique organs including every AI organ', () => {
    expect(ORGANS.length).toBeGreaterThanOrEqual(65);
    expect(ORGANS.length).toBeLessThanOrEqual(80);
    expect(new Set(ORGANS).size).toBe(ORGANS.length);
    for (const organ of AI_ORGANS) expect(ORGANS).toContain(organ);
  });

  it('lists 17 valid models with unique names', () => {
    expect(AI_MODELS).toHaveLength(17);
    expect(new Set(AI_MODELS.map((m) => m.modelName)).size).toBe(17);
    expect(new Set(AI_MODELS.map((m) => m.modelNameEnum)).size).toBe(17);
    for (const entry of AI_MODELS) expect(AiModelSchema.safeParse(entry).success).toBe(true);
  });

  it('gives every AI organ a model of its own and offers the general model everywhere', () => {
    expect([...new Set(AI_MODELS.map((m) => m.organ))]).toEqual(expect.arrayContaining([...AI_ORGANS]));
    for (const organ of AI_ORGANS) {
      const offered = aiModelsForOrgan(organ, AI_MODELS).map((m) => m.modelName);
      expect(offered, organ).toContain('others');
    }
    const installed = AI_MODELS.map((m) =>
      m.modelName === 'colon-biopsy' ? { ...m, status: 'available' as const } : m,
    );
    expect(aiModelsForOrgan('Colon', installed)[0]?.modelName).toBe('colon-biopsy');
    expect(AI_MODELS.every((m) => m.status === 'coming-soon')).toBe(true);
  });

  it('falls back to the default negative label', () => {
    expect(negativeLabelOf(findAiModel('breast-biopsy') ?? {})).toBe('Non-neoplastic lesion');
    expect(negativeLabelOf(findAiModel('cyto-uterine-cervix') ?? {})).toBe('NILM');
    expect(findAiModel('nope')).toBeUndefined();
  });
});

describe('roles', () => {
  it('orders group roles', () => {
    expect(roleAtLeast('administrator', 'member')).toBe(true);
    expect(roleAtLeast('member', 'administrator')).toBe(false);
    expect(roleAtLeast('read_only', 'read_only')).toBe(true);
  });
});
