import type { Case } from '@pathology/contract';
import { Group, Skeleton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import {
  PublicLabelPicker,
  STAR_LABEL,
  StarToggle,
  caseStarAction,
  casePublicLabelAction,
  casePublicLabelCoverage,
  distinctPublicLabels,
  isCaseStarred,
  publicLabel,
} from '../../components/labels/index.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useCaseLabels, useChangeCaseLabel } from './case-detail.queries.ts';

/** The header's private (star) and public label toggles; they apply to the case and all its images (part 1 §4). */
export function CaseLabelToggles({ item }: { item: Case }) {
  const { t } = useTranslation();
  const { canViewLabelled, canModifyPrivateLabelled, canModifyPublicLabelled } = item.userCapabilities;
  const labels = useCaseLabels(item.id, canViewLabelled);
  const change = useChangeCaseLabel(item.id);
  if (!canViewLabelled) return null;
  if (labels.isPending) return <Skeleton width={56} height={26} radius="sm" />;
  const row = labels.data;
  if (!row) return null;

  const onError = (error: Error) =>
    notifications.show({ color: 'red', title: t('caseDetail.labels.failed'), message: errorText(error, t) });

  return (
    <Group gap={4} wrap="nowrap" data-testid="case-labels">
      <StarToggle
        active={isCaseStarred(row)}
        onToggle={() => change.mutate({ label: STAR_LABEL, action: caseStarAction(row) }, { onError })}
        disabled={!canModifyPrivateLabelled}
        loading={change.isPending && change.variables.label === STAR_LABEL}
        size="md"
      />
      <PublicLabelPicker
        state={(name) => casePublicLabelCoverage(row, name)}
        onToggle={(name) =>
          change.mutate({ label: publicLabel(name), action: casePublicLabelAction(row, name) }, { onError })
        }
        shown={distinctPublicLabels(row)}
        disabled={!canModifyPublicLabelled}
        loading={change.isPending && change.variables.label !== STAR_LABEL}
      />
    </Group>
  );
}
