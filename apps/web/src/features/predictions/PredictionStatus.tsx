import { Badge, Group, Progress, Tooltip } from '@mantine/core';
import { findAiModel, negativeLabelOf, type PredictionStatus as Status } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { Abbreviated } from '../../components/Abbreviated.tsx';
import { useCatalogueName } from '../../i18n/catalogue-names.ts';

export interface PredictionSummaryLike {
  status: Status;
  modelName: string;
  /** Positive label names of a completed prediction; empty means negative. */
  parsedResult: readonly string[];
  progress: { done: number; total: number };
}

const COLOR: Record<Status, string> = { waiting: 'blue', running: 'blue', completed: 'teal', failed: 'red' };

/** A prediction's status (waiting and running both read "Requested") with its progress bar or findings. */
export function PredictionStatus({ summary }: { summary: PredictionSummaryLike }) {
  const { t } = useTranslation();
  const name = useCatalogueName();
  const model = findAiModel(summary.modelName);
  const requested = summary.status === 'waiting' || summary.status === 'running';
  const percent = summary.progress.total > 0 ? (100 * summary.progress.done) / summary.progress.total : 0;
  const labels = summary.parsedResult.length > 0 ? summary.parsedResult : [negativeLabelOf(model ?? {})];
  const findings = labels.map((label) => name('aiLabels', label)).join(', ');
  return (
    <Group gap={6} wrap="nowrap" data-testid="prediction-status" data-status={summary.status}>
      <Tooltip label={name('models', summary.modelName)} withArrow>
        <Badge size="xs" variant="light" color={COLOR[summary.status]}>
          {t(`predictions.status.${summary.status}`)}
        </Badge>
      </Tooltip>
      {requested && (
        <Progress
          value={percent}
          w={60}
          size="sm"
          animated={summary.status === 'running'}
          aria-label={t('predictions.progress', { done: summary.progress.done, total: summary.progress.total })}
          data-testid="prediction-progress"
        />
      )}
      {summary.status === 'completed' && (
        <Badge
          size="xs"
          variant="outline"
          tt="none"
          color={summary.parsedResult.length > 0 ? 'red' : 'gray'}
          data-testid="prediction-findings"
        >
          <Abbreviated text={findings} />
        </Badge>
      )}
    </Group>
  );
}
