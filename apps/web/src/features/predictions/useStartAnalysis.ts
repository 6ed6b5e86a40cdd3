import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { caseImagesQueryKeys } from '../case-images/case-images.queries.ts';
import { caseListQueryKeys } from '../case-list/case-list.queries.ts';
import { planAnalysis, type AnalysisCandidate } from './analysis-plan.ts';
import { requestPredictions } from './predictions.queries.ts';

/**
 * Start AI analysis (part 1 §5): the eligible images of the selection are requested in one call per
 * group; skipped ones are named with their reason. Lists showing predictions are refreshed after.
 */
export function useStartAnalysis() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const start = async (
    images: readonly (AnalysisCandidate & { organizationId: string })[],
    chosenModel: string | null = null,
  ): Promise<boolean> => {
    const plan = planAnalysis(images, chosenModel);
    const skippedText = plan.skipped
      .map((skip) => t(`predictions.skipReason.${skip.reason}`))
      .filter((reason, index, all) => all.indexOf(reason) === index)
      .join(', ');
    if (plan.eligible.length === 0) {
      notifications.show({ color: 'yellow', title: t('predictions.start.none'), message: skippedText || undefined });
      return false;
    }
    const organizationOf = new Map(images.map((image) => [image.id, image.organizationId]));
    const byOrganization = new Map<string, typeof plan.eligible>();
    for (const entry of plan.eligible) {
      const organizationId = organizationOf.get(entry.imageId)!;
      byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), entry]);
    }
    setBusy(true);
    try {
      for (const [organizationId, predictionImages] of byOrganization) {
        await requestPredictions({ organizationId, predictionImages });
      }
      notifications.show({
        color: 'teal',
        message: t('predictions.start.started'),
        ...(skippedText
          ? { title: t('predictions.start.skipped', { count: plan.skipped.length, reasons: skippedText }) }
          : {}),
      });
      return true;
    } catch (error) {
      notifications.show({ color: 'red', title: t('predictions.start.failed'), message: errorText(error, t) });
      return false;
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() });
      void queryClient.invalidateQueries({ queryKey: caseImagesQueryKeys.all });
    }
  };

  return { start, busy };
}
