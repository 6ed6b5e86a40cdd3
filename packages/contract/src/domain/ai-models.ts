import { z } from 'zod';
import { SpecimenTypeSchema } from './cases.ts';
import { OrganSchema, type Organ } from './organs.ts';

export const AI_MODEL_STATUSES = ['available', 'coming-soon'] as const;
export const AiModelStatusSchema = z.enum(AI_MODEL_STATUSES);
export type AiModelStatus = z.infer<typeof AiModelStatusSchema>;

/** Label of the grid cells a model finds nothing in, unless the model names its own. */
export const DEFAULT_NEGATIVE_LABEL = 'Non-neoplastic lesion';

export const AiModelSchema = z.object({
  modelName: z.string(),
  modelNameEnum: z.string(),
  displayName: z.string(),
  organ: OrganSchema,
  specimens: z.array(SpecimenTypeSchema),
  classification: z.array(z.string()),
  linkURL: z.string(),
  status: AiModelStatusSchema,
  negativeLabel: z.string().optional(),
});
export type AiModel = z.infer<typeof AiModelSchema>;

const DOCS = 'https://help.pathology.example/ai-models';

/**
 * The model catalogue (17 entries), each `coming-soon` here: the server marks a model `available`
 * when its runtime files are installed (GET predictions/models). Coming-soon models cannot be requested.
 */
export const AI_MODELS = [
  model('breast-biopsy', 'Breast biopsy', 'Breast', ['biopsy'], ['Invasive carcinoma', 'DCIS']),
  model(
    'breast-surgical',
    'Breast surgical',
    'Breast',
    ['surgical'],
    ['Invasive carcinoma', 'DCIS', 'Lymphovascular invasion'],
  ),
  model('colon-biopsy', 'Colon biopsy', 'Colon', ['biopsy'], ['Adenocarcinoma', 'Adenoma', 'Hyperplastic polyp']),
  model('colon-surgical', 'Colon surgical', 'Colon', ['surgical'], ['Adenocarcinoma', 'Adenoma']),
  model(
    'stomach-biopsy',
    'Stomach biopsy',
    'Stomach',
    ['biopsy'],
    ['Adenocarcinoma', 'Adenoma', 'Signet-ring cell carcinoma'],
  ),
  model(
    'stomach-surgical',
    'Stomach surgical',
    'Stomach',
    ['surgical'],
    ['Adenocarcinoma', 'Signet-ring cell carcinoma'],
  ),
  model(
    'lung-biopsy',
    'Lung biopsy (TBLB)',
    'Lung',
    ['biopsy'],
    ['Adenocarcinoma', 'Squamous cell carcinoma', 'Small cell carcinoma'],
  ),
  model('lung-surgical', 'Lung surgical', 'Lung', ['surgical'], ['Adenocarcinoma', 'Squamous cell carcinoma']),
  model(
    'prostate-biopsy',
    'Prostate needle biopsy',
    'Prostate',
    ['biopsy'],
    ['Gleason pattern 3', 'Gleason pattern 4', 'Gleason pattern 5'],
  ),
  model('pancreas', 'Pancreas surgical', 'Pancreas', ['surgical'], ['Invasive ductal adenocarcinoma', 'PanIN', 'IPMN']),
  model('p-eus-fna', 'Pancreas EUS-FNA', 'Pancreas', ['biopsy'], ['Adenocarcinoma', 'Atypical cells'], {
    negativeLabel: 'Negative for malignancy',
  }),
  model('lymph-node', 'Lymph node metastasis', 'Lymph Node', ['biopsy', 'surgical'], ['Metastatic carcinoma'], {
    negativeLabel: 'No metastasis',
  }),
  model('liver', 'Liver biopsy', 'Liver', ['biopsy'], ['Hepatocellular carcinoma', 'Metastatic carcinoma']),
  model(
    'cyto-urine',
    'Urine cytology',
    'Urine',
    ['LBC'],
    ['High-grade urothelial carcinoma', 'Atypical urothelial cells'],
    {
      negativeLabel: 'Negative for high-grade urothelial carcinoma',
    },
  ),
  model('cyto-uterine-cervix', 'Cervical cytology', 'Uterine Cervix', ['LBC'], ['HSIL', 'LSIL', 'ASC-US', 'ASC-H'], {
    negativeLabel: 'NILM',
  }),
  model(
    'uterine-cervix-cellprep',
    'Cervical cytology (CellPrep)',
    'Uterine Cervix',
    ['LBC'],
    ['HSIL', 'LSIL', 'ASC-US'],
    {
      negativeLabel: 'NILM',
    },
  ),
  model(
    'others',
    'Nuclear density (any organ)',
    'Skin',
    ['biopsy', 'surgical', 'LBC', 'autopsy'],
    ['High nuclear density'],
  ),
] as const satisfies readonly AiModel[];

export type AiModelName = (typeof AI_MODELS)[number]['modelName'];
export const AI_MODEL_NAMES: readonly AiModelName[] = AI_MODELS.map((entry) => entry.modelName);
export const AiModelNameSchema = z.enum(AI_MODEL_NAMES);

export function findAiModel(modelName: string): AiModel | undefined {
  return AI_MODELS.find((entry) => entry.modelName === modelName);
}

/** Catalogue names whose models read any tissue, so they are offered for every organ. */
export const GENERAL_AI_MODELS: readonly string[] = ['others'];

/** Whether a model is offered for an organ: its own organ's models and the general ones. */
export function modelFitsOrgan(entry: Pick<AiModel, 'modelName' | 'organ'>, organ: string | null): boolean {
  return organ === null || entry.organ === organ || GENERAL_AI_MODELS.includes(entry.modelName);
}

/** Models offered for one organ, available ones first, in catalogue order. */
export function aiModelsForOrgan<M extends AiModel>(organ: string, models: readonly M[]): M[] {
  const ofOrgan = models.filter((entry) => modelFitsOrgan(entry, organ));
  return [...ofOrgan.filter((m) => m.status === 'available'), ...ofOrgan.filter((m) => m.status !== 'available')];
}

export function negativeLabelOf(entry: Pick<AiModel, 'negativeLabel'>): string {
  return entry.negativeLabel ?? DEFAULT_NEGATIVE_LABEL;
}

function model<const N extends string>(
  modelName: N,
  displayName: string,
  organ: Organ,
  specimens: AiModel['specimens'],
  classification: string[],
  extra: { negativeLabel?: string } = {},
): AiModel & { modelName: N } {
  return {
    modelName,
    modelNameEnum: modelName.toUpperCase().replaceAll('-', '_'),
    displayName,
    organ,
    specimens,
    classification,
    linkURL: `${DOCS}/${modelName}`,
    status: 'coming-soon',
    ...(extra.negativeLabel === undefined ? {} : { negativeLabel: extra.negativeLabel }),
  };
}
