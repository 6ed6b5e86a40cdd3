import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IMAGE_ORDER_FIELDS, type CaseDetailSetting, type ImageOrder } from '@pathology/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secondPriorityFields } from './image-order.ts';

type Field = ImageOrder['field'];
type Direction = ImageOrder['direction'];

interface PriorityProps {
  label: string;
  fields: readonly Field[];
  field: Field | null;
  direction: Direction;
  clearable: boolean;
  onChange: (field: Field | null, direction: Direction) => void;
  testId: string;
}

function Priority({ label, fields, field, direction, clearable, onChange, testId }: PriorityProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Select
          aria-label={label}
          placeholder={t('caseImages.sort.none')}
          data={fields.map((value) => ({ value, label: t(`caseImages.sort.fields.${value}`) }))}
          value={field}
          clearable={clearable}
          onChange={(value) => onChange(value, direction)}
          style={{ flex: 1 }}
        />
        <SegmentedControl
          // Part 1 §2: the order buttons wait for a field.
          disabled={field == null}
          value={direction}
          onChange={(value) => onChange(field, value)}
          data={[
            { value: 'asc', label: t('caseImages.sort.asc') },
            { value: 'desc', label: t('caseImages.sort.desc') },
          ]}
        />
      </Group>
    </Stack>
  );
}

/** Two sort priorities for the case's images; the second cannot repeat the first (part 1 §2). */
export function ImageSortDialog(props: {
  opened: boolean;
  onClose: () => void;
  setting: CaseDetailSetting;
  onApply: (setting: CaseDetailSetting) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(props.setting);
  useEffect(() => setDraft(props.setting), [props.setting, props.opened]);
  const second = draft.thenBy;
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('caseImages.sort.title')}
      centered
      data-testid="image-sort-dialog"
    >
      <Stack gap="md">
        <Priority
          label={t('caseImages.sort.first')}
          fields={IMAGE_ORDER_FIELDS}
          field={draft.order.field}
          direction={draft.order.direction}
          clearable={false}
          onChange={(field, direction) => {
            const order = { field: field ?? draft.order.field, direction };
            setDraft({ order, thenBy: draft.thenBy?.field === order.field ? null : draft.thenBy });
          }}
          testId="image-sort-first"
        />
        <Priority
          label={t('caseImages.sort.second')}
          fields={secondPriorityFields(draft.order.field, IMAGE_ORDER_FIELDS)}
          field={second?.field ?? null}
          direction={second?.direction ?? 'asc'}
          clearable
          onChange={(field, direction) => setDraft({ ...draft, thenBy: field == null ? null : { field, direction } })}
          testId="image-sort-second"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('caseImages.sort.cancel')}
          </Button>
          <Button
            onClick={() => {
              props.onApply(draft);
              props.onClose();
            }}
            data-testid="image-sort-apply"
          >
            {t('caseImages.sort.apply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
