import { Alert, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { MAX_ALIGNMENT_POINTS } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import type { PickedPair } from './point-picking.ts';
import type { PickStatus } from './useAlignmentPicking.ts';

interface AlignmentPanelProps {
  referenceName: string;
  otherName: string;
  /** Panes that can be aligned with the first one (by index), when there is a choice. */
  choices: { index: number; name: string }[];
  otherIndex: number;
  onOther: (index: number) => void;
  pairs: readonly PickedPair[];
  /** Per complete pair, the residual already formatted with its unit. */
  residuals: readonly string[];
  /** The points fix no transform (collinear or coinciding). */
  degenerate: boolean;
  canSave: boolean;
  saving: boolean;
  onSave: () => void;
  onClear: () => void;
  onCancel: () => void;
  /** Present when the pair has a saved alignment. */
  onRemove?: () => void;
  /** What the last click did, with the panes' names to say where. */
  status: PickStatus | null;
  paneNames: readonly string[];
}

/** Point alignment: which slide, the clicked pairs with their residual, save or cancel. */
export function AlignmentPanel(props: AlignmentPanelProps) {
  const { t } = useTranslation();
  let complete = 0;
  const statusText = (status: PickStatus) => {
    if (status.kind === 'missed') return t('compare.align.missed');
    const name = props.paneNames[status.pane] ?? '';
    if (status.kind === 'placed') return t('compare.align.placed', { number: status.number, name });
    if (status.kind === 'outside') return t('compare.align.outside', { name });
    if (status.kind === 'full') return t('compare.align.full', { count: MAX_ALIGNMENT_POINTS, name });
    return t('compare.align.notAligned', { name, reference: props.referenceName, other: props.otherName });
  };
  return (
    <Paper
      shadow="md"
      radius="md"
      p="sm"
      withBorder
      pos="absolute"
      bottom={16}
      left="50%"
      w={420}
      maw="calc(100% - 32px)"
      style={{ transform: 'translateX(-50%)', zIndex: 5 }}
      role="dialog"
      aria-label={t('compare.align.title')}
      data-testid="compare-align-panel"
    >
      <Stack gap="xs">
        <Title order={2} fz="sm">
          {t('compare.align.title')}
        </Title>
        {props.choices.length > 1 && (
          <Select
            size="xs"
            aria-label={t('compare.align.with', { name: '' })}
            value={String(props.otherIndex)}
            allowDeselect={false}
            data={props.choices.map((choice) => ({
              value: String(choice.index),
              label: t('compare.align.with', { name: choice.name }),
            }))}
            onChange={(value) => value !== null && props.onOther(Number(value))}
          />
        )}
        <Text size="xs">
          {t('compare.align.instructions', { reference: props.referenceName, other: props.otherName })}
        </Text>
        {props.status && (
          <Text
            size="xs"
            fw={500}
            c={props.status.kind === 'placed' ? 'teal.8' : 'orange.8'}
            role="status"
            data-testid="compare-align-status"
            data-kind={props.status.kind}
          >
            {statusText(props.status)}
          </Text>
        )}
        {props.pairs.length > 0 && (
          <Table withRowBorders={false} verticalSpacing={2} fz="xs" data-testid="compare-align-points">
            <Table.Tbody>
              {props.pairs.map((pair, index) => {
                const done = pair.reference !== undefined && pair.other !== undefined;
                const residual = done ? props.residuals[complete++] : undefined;
                return (
                  <Table.Tr key={index}>
                    <Table.Td>{t('compare.align.point', { number: index + 1 })}</Table.Td>
                    <Table.Td c={done ? undefined : 'dimmed'}>
                      {done && residual !== undefined
                        ? t('compare.align.residual', { value: residual })
                        : t('compare.align.pending')}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {props.residuals.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('compare.align.residualHint')}
          </Text>
        )}
        {props.degenerate && (
          <Alert color="orange" p="xs">
            <Text size="xs">{t('compare.align.collinear')}</Text>
          </Alert>
        )}
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Button
              size="xs"
              onClick={props.onSave}
              disabled={!props.canSave}
              loading={props.saving}
              data-testid="compare-align-save"
            >
              {t('compare.align.save')}
            </Button>
            <Button size="xs" variant="default" onClick={props.onClear}>
              {t('compare.align.clear')}
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={props.onCancel} data-testid="compare-align-cancel">
              {t('compare.align.cancel')}
            </Button>
          </Group>
          {props.onRemove && (
            <Button size="xs" variant="subtle" color="red" onClick={props.onRemove} data-testid="compare-align-remove">
              {t('compare.align.remove')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
