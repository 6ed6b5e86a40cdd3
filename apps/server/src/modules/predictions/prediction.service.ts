import {
  modelFitsOrgan,
  PREDICTION_MESSAGES,
  type BulkPredictionRequest,
  type BulkPredictionResponse,
  type InstalledAiModel,
  type Prediction,
  type RequestPrediction,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { ModelRegistry } from './model-registry.ts';
import { toPrediction, type PredictionRepository, type PredictionTarget } from './prediction.repository.ts';

interface Deps {
  predictions: PredictionRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible' | 'requireCaseCapability'>;
  models: Pick<ModelRegistry, 'catalogue' | 'find'>;
  queuePrediction: (predictionId: string) => Promise<void>;
  /** Whether the prediction's job waits or runs on a live worker. */
  predictionAlive: (predictionId: string) => Promise<boolean>;
}

type CaseCapability = Parameters<CapabilitiesService['requireCaseCapability']>[2];

/**
 * AI prediction requests (part 2 §7): the caller needs the request-prediction capability on the
 * image's case (false too when the owner group has prediction disabled); reading needs view
 * prediction, recovering recover prediction. Only installed models run; nothing is ever made up.
 */
export function createPredictionService({ predictions, capabilities, models, queuePrediction, predictionAlive }: Deps) {
  async function targetOf(imageId: string): Promise<PredictionTarget> {
    const found = isUuid(imageId) ? await predictions.target(imageId) : undefined;
    if (!found) throw HttpError.notFound();
    return found;
  }

  async function predictionFor(caller: Caller, id: string, capability: CaseCapability) {
    const row = isUuid(id) ? await predictions.find(id) : undefined;
    if (!row) throw HttpError.notFound();
    const target = await targetOf(row.imageId);
    await capabilities.requireCaseCapability(caller, target.caseId, capability);
    return row;
  }

  async function start(caller: Caller, target: PredictionTarget, layerId: string, modelName: string) {
    const row = await predictions.create({
      imageId: target.imageId,
      imageLayerId: layerId,
      modelName,
      accountId: caller.accountId,
    });
    await queuePrediction(row.id);
    return toPrediction(row);
  }

  return {
    /** The catalogue with real statuses; with an image, the models that fit its organ. */
    async models(caller: Caller, imageId: string | undefined): Promise<InstalledAiModel[]> {
      const catalogue = await models.catalogue();
      if (imageId === undefined) return catalogue;
      const target = await targetOf(imageId);
      await capabilities.requireCaseVisible(caller, target.caseId);
      return catalogue.filter((entry) => modelFitsOrgan(entry, target.organ));
    },

    async request(caller: Caller, input: RequestPrediction): Promise<Prediction> {
      const imageId = isUuid(input.imageLayerId) ? await predictions.imageOfLayer(input.imageLayerId) : undefined;
      if (!imageId) throw HttpError.notFound();
      const target = await targetOf(imageId);
      await capabilities.requireCaseCapability(caller, target.caseId, 'canRequestPrediction');
      if (target.status !== 'available') throw HttpError.conflict(PREDICTION_MESSAGES.imageNotAvailable);
      if (!(await models.find(input.modelName)))
        throw HttpError.validation(
          { modelName: PREDICTION_MESSAGES.modelNotAvailable },
          PREDICTION_MESSAGES.modelNotAvailable,
        );
      const current = await predictions.current(imageId, input.modelName);
      if (current && current.status !== 'completed') throw HttpError.conflict(PREDICTION_MESSAGES.alreadyRequested);
      return start(caller, target, input.imageLayerId, input.modelName);
    },

    /**
     * Part 1 §5: an image qualifies when it has a model and no prediction of that model yet; the others
     * are skipped with their reason. Every image must be in a case of the group that may predict.
     */
    async bulkRequest(caller: Caller, input: BulkPredictionRequest): Promise<BulkPredictionResponse> {
      const response: BulkPredictionResponse = { requested: [], skipped: [] };
      const planned: { target: PredictionTarget; modelName: string }[] = [];
      for (const { imageId, modelName } of input.predictionImages) {
        const target = await targetOf(imageId);
        const visible = await capabilities.requireCaseCapability(caller, target.caseId, 'canRequestPrediction');
        if (visible.case.ownerOrganization.id !== input.organizationId) throw HttpError.notFound();
        const model = modelName || target.modelName;
        if (!model) response.skipped.push({ imageId, reason: 'emptyModel' });
        else if (await predictions.current(imageId, model))
          response.skipped.push({ imageId, reason: 'alreadyAnalyzed' });
        else if (target.status !== 'available' || target.layerIds.length === 0 || !(await models.find(model))) {
          response.skipped.push({ imageId, reason: 'notAvailable' });
        } else planned.push({ target, modelName: model });
      }
      for (const { target, modelName } of planned) {
        response.requested.push(await start(caller, target, target.layerIds[0]!, modelName));
      }
      return response;
    },

    async get(caller: Caller, id: string): Promise<Prediction> {
      return toPrediction(await predictionFor(caller, id, 'canViewPrediction'));
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await predictionFor(caller, id, 'canRequestPrediction');
      await predictions.remove(id);
    },

    /**
     * Runs a prediction again. Without force only one that failed, or that waits or runs with no live
     * job behind it (its worker and queue entry lost), may be recovered; force restarts any.
     */
    async recover(caller: Caller, id: string, force: boolean): Promise<Prediction> {
      const row = await predictionFor(caller, id, 'canRecoverPrediction');
      const stuck = (row.status === 'waiting' || row.status === 'running') && !(await predictionAlive(id));
      if (!force && row.status !== 'failed' && !stuck) throw HttpError.conflict(PREDICTION_MESSAGES.notRecoverable);
      const reset = await predictions.reset(id);
      if (!reset) throw HttpError.notFound();
      await queuePrediction(id);
      return toPrediction(reset);
    },
  };
}

export type PredictionService = ReturnType<typeof createPredictionService>;
