import { MAX_COLOR_PRESET_NAME_LENGTH, type ColorSettings } from '@pathology/contract';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { organizationsQuery } from '../organizations/organizations.queries.ts';
import { chosenPreset } from './colour-panel.ts';
import { useColourPresets, usePresetMutations, type ColourPreset } from './colour.queries.ts';

interface Props {
  organizationId: string;
  settings: ColorSettings;
  /** The preset the loaded colour came from (the group default), if any. */
  presetId: string | null;
  onApply: (settings: ColorSettings) => void;
}

/** The group's presets to pick from; for its administrators, creating, (un)setting the default and deleting. */
export function PresetControls({ organizationId, settings, presetId, onApply }: Props) {
  const { t } = useTranslation();
  const presets = useColourPresets(organizationId);
  const groups = useQuery(organizationsQuery());
  const canEdit =
    groups.data?.data.find((group) => group.id === organizationId)?.userCapabilities.canEdit === true &&
    presets.isSuccess;
  const mutations = usePresetMutations(organizationId);
  const [picked, setPicked] = useState<string | null>(presetId);
  const [naming, setNaming] = useState(false);

  // A caller who sees the case but not its group gets 404 here: there is simply nothing to offer.
  if (presets.isError) return null;
  const list = presets.data ?? [];
  const chosen = chosenPreset(list, settings, picked);
  const busy = Object.values(mutations).some((mutation) => mutation.isPending);

  const failed = (error: unknown) =>
    notifications.show({ color: 'red', title: t('viewerColour.presets.failed'), message: errorText(error, t) });

  const confirmDelete = (preset: ColourPreset) =>
    modals.openConfirmModal({
      title: t('viewerColour.presets.deleteTitle'),
      centered: true,
      children: <Text size="sm">{t('viewerColour.presets.deleteConfirm', { name: preset.name })}</Text>,
      labels: { confirm: t('viewerColour.presets.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'colour-preset-delete-confirm' },
      onConfirm: () =>
        mutations.remove.mutate(preset.id, {
          onSuccess: () =>
            notifications.show({ color: 'teal', message: t('viewerColour.presets.deleted', { name: preset.name }) }),
          onError: failed,
        }),
    });

  return (
    <Stack gap="xs">
      <Select
        label={t('viewerColour.presets.label')}
        placeholder={list.length === 0 ? t('viewerColour.presets.empty') : t('viewerColour.presets.placeholder')}
        data={list.map((preset) => ({
          value: preset.id,
          label: preset.isDefault ? t('viewerColour.presets.defaultMark', { name: preset.name }) : preset.name,
        }))}
        value={chosen?.id ?? null}
        onChange={(id) => {
          const preset = list.find((item) => item.id === id);
          if (preset == null) return;
          setPicked(preset.id);
          onApply(preset.settings);
        }}
        disabled={presets.isPending || list.length === 0}
        allowDeselect={false}
        size="xs"
        data-testid="colour-preset-select"
      />
      {canEdit && (
        <Group gap={6}>
          <Button size="compact-xs" variant="light" onClick={() => setNaming(true)} disabled={busy}>
            {t('viewerColour.presets.saveAs')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            disabled={busy || chosen == null || chosen.isDefault}
            onClick={() => chosen && mutations.setDefault.mutate(chosen.id, { onError: failed })}
            data-testid="colour-preset-set-default"
          >
            {t('viewerColour.presets.setDefault')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            disabled={busy || chosen?.isDefault !== true}
            onClick={() => chosen && mutations.unsetDefault.mutate(chosen.id, { onError: failed })}
            data-testid="colour-preset-unset-default"
          >
            {t('viewerColour.presets.unsetDefault')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            disabled={busy || chosen == null}
            onClick={() => chosen && confirmDelete(chosen)}
            data-testid="colour-preset-delete"
          >
            {t('viewerColour.presets.delete')}
          </Button>
        </Group>
      )}
      {naming && (
        <SavePresetModal
          onClose={() => setNaming(false)}
          onSave={(name) =>
            mutations.create.mutateAsync({ name, settings }).then((preset) => {
              setPicked(preset.id);
              notifications.show({ color: 'teal', message: t('viewerColour.presets.created', { name: preset.name }) });
            })
          }
        />
      )}
    </Stack>
  );
}

function SavePresetModal({ onClose, onSave }: { onClose: () => void; onSave: (name: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    onSave(name)
      .then(onClose)
      .catch((failure: unknown) => {
        setError(failure instanceof ValidationError ? (failure.errors.name ?? failure.message) : errorText(failure, t));
        setSaving(false);
      });
  };

  return (
    <Modal opened onClose={onClose} title={t('viewerColour.presets.saveAs')} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('viewerColour.presets.name')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
            required
            maxLength={MAX_COLOR_PRESET_NAME_LENGTH}
            data-autofocus
            data-testid="colour-preset-name"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving} disabled={name.trim() === ''} data-testid="colour-preset-create">
              {t('viewerColour.presets.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
