import { Alert, Box, Button, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconUpload } from '@tabler/icons-react';
import { acceptOf, DIALOG_EXTENSIONS } from './file-types.ts';
import { useFileDrop } from './useFileDrop.ts';
import { CasePicker } from './CasePicker.tsx';
import { DraftFileRow } from './DraftFileRow.tsx';
import {
  checkCase,
  removeFile,
  renameFile,
  setCase,
  setFileKind,
  transferFile,
  type CaseMatch,
  type DialogState,
  type DraftCase,
} from './upload-dialog.state.ts';

/** One target case of the dialog: its picker, the drop zone and its files, and the duplicate and size warnings. */
export function DialogCaseSection({
  state,
  draft,
  index,
  organizationId,
  maxImages,
  onState,
  onAddFiles,
  onRemoveCase,
}: {
  state: DialogState;
  draft: DraftCase;
  index: number;
  organizationId: string;
  maxImages: number;
  onState: (update: (state: DialogState) => DialogState) => void;
  onAddFiles: (caseKey: string, files: File[]) => void;
  onRemoveCase?: () => void;
}) {
  const { t } = useTranslation();
  const check = checkCase(state, draft, maxImages);
  const files = state.files.filter((file) => file.caseKey === draft.key);
  const otherCases = state.cases.filter((other) => other.key !== draft.key);
  const { open, dragging, zoneProps, inputProps } = useFileDrop((chosen) => onAddFiles(draft.key, chosen));
  const onMatch = useCallback(
    (match: CaseMatch | null) => onState((current) => setCase(current, draft.key, { match })),
    [draft.key, onState],
  );
  const numberError = check.missingNumber && files.length > 0 ? t('uploads.dialog.caseNumberRequired') : undefined;

  return (
    <Paper withBorder radius="md" p="sm" data-testid="dialog-case">
      <Stack gap="sm">
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <Box style={{ flex: 1 }}>
            <CasePicker
              draft={draft}
              organizationId={organizationId}
              error={numberError}
              onChange={(caseNumber) =>
                onState((current) =>
                  setCase(current, draft.key, { caseNumber, match: caseNumber.trim() ? undefined : null }),
                )
              }
              onMatch={onMatch}
            />
          </Box>
          {onRemoveCase && (
            <CloseButton mt={26} aria-label={t('uploads.dialog.removeCase', { n: index + 1 })} onClick={onRemoveCase} />
          )}
        </Group>
        {check.duplicates.size > 0 && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="duplicate-alert"
          >
            {t('uploads.dialog.imageExists', { caseNumber: draft.caseNumber.trim() })}
          </Alert>
        )}
        {check.exceedsMax && (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />} data-testid="max-images-warning">
            {t('uploads.dialog.maxImages', { max: maxImages })}
          </Alert>
        )}
        <Box
          {...zoneProps}
          role="group"
          aria-label={t('uploads.dialog.dropZone')}
          p="md"
          style={{
            border: `1px dashed var(--mantine-color-${dragging ? 'violet-6' : 'gray-4'})`,
            borderRadius: 'var(--mantine-radius-md)',
            background: dragging ? 'var(--mantine-color-violet-light)' : 'var(--mantine-color-gray-0)',
            textAlign: 'center',
          }}
          data-testid="dialog-dropzone"
        >
          <Stack gap={6} align="center">
            <Text size="sm">{t('uploads.dialog.dropHere')}</Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconUpload size={15} />}
              onClick={open}
              data-testid="choose-files"
            >
              {t('uploads.dialog.chooseFiles')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('uploads.dialog.accepted')}
            </Text>
          </Stack>
          <input {...inputProps} accept={acceptOf(DIALOG_EXTENSIONS)} data-testid="dialog-file-input" />
        </Box>
        {files.length > 0 && (
          <Stack gap="xs" data-testid="draft-files">
            {files.map((file) => (
              <DraftFileRow
                key={file.key}
                draft={file}
                duplicate={check.duplicates.has(file.key)}
                otherCases={otherCases}
                onRename={(displayName) => onState((current) => renameFile(current, file.key, displayName))}
                onKind={(kind) => onState((current) => setFileKind(current, file.key, kind))}
                onRemove={() => onState((current) => removeFile(current, file.key))}
                onTransfer={(toCaseKey, move) => onState((current) => transferFile(current, file.key, toCaseKey, move))}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
