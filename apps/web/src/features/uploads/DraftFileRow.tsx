import { ActionIcon, Badge, Group, Menu, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UploadKind } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { IconArrowsExchange, IconCopy, IconTrash } from '@tabler/icons-react';
import { formatBytes } from './file-types.ts';
import type { DraftCase, DraftFile } from './upload-dialog.state.ts';

/**
 * A chosen file: editable display name, what it goes in as (image or attachment, a choice where the type allows
 * both), the duplicate error, and copy / move / remove.
 */
export function DraftFileRow({
  draft,
  duplicate,
  otherCases,
  onRename,
  onKind,
  onRemove,
  onTransfer,
}: {
  draft: DraftFile;
  duplicate: boolean;
  otherCases: readonly DraftCase[];
  onRename: (displayName: string) => void;
  onKind: (kind: UploadKind) => void;
  onRemove: () => void;
  onTransfer: (toCaseKey: string, move: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = draft.file.name;
  const caseLabel = (other: DraftCase, index: number) =>
    other.caseNumber.trim() || t('uploads.dialog.caseN', { n: index + 1 });
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="draft-file" data-duplicate={duplicate || undefined}>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        {draft.supported ? (
          <TextInput
            size="xs"
            value={draft.displayName}
            onChange={(event) => onRename(event.currentTarget.value)}
            onBlur={() => {
              if (draft.displayName.trim() === '') onRename(name);
            }}
            aria-label={t('uploads.dialog.displayNameOf', { filename: name })}
            error={duplicate}
            data-testid="draft-display-name"
          />
        ) : (
          <Text size="sm" c="dimmed" td="line-through" truncate="end">
            {name}
          </Text>
        )}
        <Text size="xs" c={duplicate ? 'red' : 'dimmed'} truncate="end" title={name}>
          {name} · {formatBytes(draft.file.size, i18n.language)}
          {duplicate ? ` — ${t('uploads.errors.duplicate')}` : ''}
        </Text>
      </Stack>
      {draft.kinds.length > 1 ? (
        <SegmentedControl
          size="xs"
          mt={2}
          value={draft.kind}
          onChange={(value) => onKind(value)}
          data={draft.kinds.map((kind) => ({ value: kind, label: t(`uploads.dialog.kinds.${kind}`) }))}
          aria-label={t('uploads.dialog.kindOf', { filename: name })}
          style={{ flexShrink: 0 }}
          data-testid="draft-kind"
        />
      ) : (
        <Badge
          size="sm"
          mt={4}
          variant="light"
          color={draft.supported ? 'teal' : 'gray'}
          style={{ flexShrink: 0 }}
          data-testid="draft-support"
          data-kind={draft.supported ? draft.kind : undefined}
        >
          {draft.supported ? t(`uploads.dialog.kinds.${draft.kind}`) : t('uploads.unsupported.label')}
        </Badge>
      )}
      {draft.supported && otherCases.length > 0 && (
        <Menu shadow="md" position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label={t('uploads.dialog.copyOrMove')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                mt={2}
                aria-label={t('uploads.dialog.copyOrMoveFile', { filename: name })}
              >
                <IconArrowsExchange size={16} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {otherCases.map((other, index) => (
              <Menu.Item
                key={`copy-${other.key}`}
                leftSection={<IconCopy size={14} />}
                onClick={() => onTransfer(other.key, false)}
              >
                {t('uploads.dialog.copyTo', { caseNumber: caseLabel(other, index) })}
              </Menu.Item>
            ))}
            <Menu.Divider />
            {otherCases.map((other, index) => (
              <Menu.Item
                key={`move-${other.key}`}
                leftSection={<IconArrowsExchange size={14} />}
                onClick={() => onTransfer(other.key, true)}
              >
                {t('uploads.dialog.moveTo', { caseNumber: caseLabel(other, index) })}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      <Tooltip label={t('uploads.dialog.remove')}>
        <ActionIcon
          variant="subtle"
          color="gray"
          mt={2}
          onClick={onRemove}
          aria-label={t('uploads.dialog.removeFile', { filename: name })}
          data-testid="draft-remove"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
