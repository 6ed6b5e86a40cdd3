import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { MAX_IMAGE_NOTE_LENGTH, type DrawingVisibility, type ImageNote } from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useImageNoteActions, useImageNotes } from './image-notes.queries.ts';

interface NoteEditorProps {
  initial?: ImageNote;
  busy: boolean;
  onSubmit: (body: string, visibility: DrawingVisibility) => Promise<unknown>;
  onCancel?: () => void;
}

/** The text and visibility of a note; what was typed stays when saving fails. */
function NoteEditor({ initial, busy, onSubmit, onCancel }: NoteEditorProps) {
  const { t } = useTranslation();
  const [body, setBody] = useState(initial?.body ?? '');
  const [visibility, setVisibility] = useState<DrawingVisibility>(initial?.visibility ?? 'public');
  const submit = async () => {
    try {
      await onSubmit(body, visibility);
      if (!initial) setBody('');
    } catch (error) {
      notifications.show({ color: 'red', title: t('imageNotes.saveFailed'), message: errorText(error, t) });
    }
  };
  return (
    <Stack gap={6}>
      <Textarea
        aria-label={t('imageNotes.title')}
        placeholder={t('imageNotes.placeholder')}
        autosize
        minRows={2}
        maxRows={8}
        maxLength={MAX_IMAGE_NOTE_LENGTH}
        value={body}
        onChange={(event) => setBody(event.currentTarget.value)}
        data-testid="image-note-input"
      />
      <Group justify="space-between" gap={6}>
        <SegmentedControl
          size="xs"
          aria-label={t('imageNotes.visibility')}
          value={visibility}
          onChange={(value) => setVisibility(value)}
          data={[
            { value: 'public', label: t('imageNotes.public') },
            { value: 'private', label: t('imageNotes.private') },
          ]}
        />
        <Group gap={4}>
          {onCancel && (
            <Button size="compact-sm" variant="default" onClick={onCancel}>
              {t('imageNotes.cancel')}
            </Button>
          )}
          <Button
            size="compact-sm"
            disabled={body.trim() === ''}
            loading={busy}
            onClick={() => void submit()}
            data-testid="image-note-save"
          >
            {initial ? t('imageNotes.save') : t('imageNotes.add')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** The notes of an image in the viewer: newest first, added, edited and deleted by their authors. */
export function ImageNotesPanel({ imageId }: { imageId: string }) {
  const { t } = useTranslation();
  const notes = useImageNotes(imageId);
  const actions = useImageNoteActions(imageId);
  const [editing, setEditing] = useState<string | null>(null);

  const confirmDelete = (note: ImageNote) =>
    modals.openConfirmModal({
      title: t('imageNotes.deleteTitle'),
      children: <Text size="sm">{t('imageNotes.deleteConfirm')}</Text>,
      labels: { confirm: t('imageNotes.delete'), cancel: t('imageNotes.cancel') },
      centered: true,
      confirmProps: { color: 'red', 'data-testid': 'image-note-delete-confirm' },
      onConfirm: () =>
        actions.remove.mutate(note, {
          onError: (error) =>
            notifications.show({ color: 'red', title: t('imageNotes.deleteFailed'), message: errorText(error, t) }),
        }),
    });

  return (
    <Stack gap="xs" data-testid="image-notes">
      <NoteEditor
        busy={actions.create.isPending}
        onSubmit={(body, visibility) => actions.create.mutateAsync({ body, visibility })}
      />
      {notes.isPending && <Loader size="sm" />}
      {notes.isError && (
        <LoadErrorAlert
          title={t('imageNotes.loadFailed')}
          error={notes.error}
          retryLabel={t('imageNotes.retry')}
          onRetry={() => notes.refetch()}
          testId="image-notes-error"
        />
      )}
      {notes.data?.total === 0 && (
        <Text size="sm" c="dimmed" data-testid="image-notes-empty">
          {t('imageNotes.empty')}
        </Text>
      )}
      {notes.data?.data.map((note) =>
        editing === note.id ? (
          <NoteEditor
            key={note.id}
            initial={note}
            busy={actions.update.isPending}
            onSubmit={async (body, visibility) => {
              await actions.update.mutateAsync({ note, patch: { body, visibility } });
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <Paper key={note.id} withBorder radius="sm" p={8} data-testid="image-note">
            <Group justify="space-between" gap={4} wrap="nowrap" align="flex-start">
              <Text size="xs" c="dimmed" data-testid="image-note-meta">
                {note.authorName ?? '—'} · {formatDateTime(note.createdAt)}
                {note.updatedAt !== note.createdAt && ` · ${t('imageNotes.edited')}`}
              </Text>
              <Group gap={2} wrap="nowrap">
                {note.visibility === 'private' && (
                  <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} />}>
                    {t('imageNotes.private')}
                  </Badge>
                )}
                {note.userCapabilities.canUpdate && (
                  <Tooltip label={t('imageNotes.edit')} withArrow>
                    <ActionIcon
                      size="sm"
                      variant="subtle"
                      color="gray"
                      aria-label={t('imageNotes.edit')}
                      onClick={() => setEditing(note.id)}
                    >
                      <IconPencil size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {note.userCapabilities.canDelete && (
                  <Tooltip label={t('imageNotes.delete')} withArrow>
                    <ActionIcon
                      size="sm"
                      variant="subtle"
                      color="red"
                      aria-label={t('imageNotes.delete')}
                      onClick={() => confirmDelete(note)}
                    >
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="image-note-body">
              {note.body}
            </Text>
          </Paper>
        ),
      )}
    </Stack>
  );
}
