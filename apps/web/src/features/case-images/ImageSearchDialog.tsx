import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  AI_MODEL_NAMES,
  ImageSearchResponseSchema,
  ORGANS,
  SPECIMEN_TYPES,
  type ImageSearchExpression,
} from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useCatalogueOptions } from '../../i18n/catalogue-names.ts';
import { errorText } from '../../i18n/error-text.ts';

interface SearchFields {
  displayName: string;
  organ: string | null;
  specimenType: string | null;
  modelName: string | null;
  imageTag: string;
}

const EMPTY: SearchFields = { displayName: '', organ: null, specimenType: null, modelName: null, imageTag: '' };

/** The expressions of POST images/search for a case and the filled-in fields (a name matches anywhere in it). */
export function imageSearchQuery(caseId: string, fields: SearchFields): ImageSearchExpression[] {
  const query: ImageSearchExpression[] = [{ field: 'caseId', operator: 'is', value: caseId }];
  const name = fields.displayName.trim();
  if (name) query.push({ field: 'displayName', operator: 'is', value: `*${name}*` });
  if (fields.organ) query.push({ field: 'organ', operator: 'is', value: fields.organ });
  if (fields.specimenType) query.push({ field: 'specimenType', operator: 'is', value: fields.specimenType });
  if (fields.modelName) query.push({ field: 'modelName', operator: 'is', value: fields.modelName });
  if (fields.imageTag.trim()) query.push({ field: 'imageTags', operator: 'is', value: [fields.imageTag.trim()] });
  return query;
}

/** Searches the case's images on the server with the fields of case search; hands back the ids found. */
export function ImageSearchDialog(props: {
  opened: boolean;
  onClose: () => void;
  caseId: string;
  onFound: (imageIds: ReadonlySet<string>) => void;
}) {
  const { t } = useTranslation();
  const organOptions = useCatalogueOptions('organs', ORGANS);
  const modelOptions = useCatalogueOptions('models', AI_MODEL_NAMES);
  const [fields, setFields] = useState<SearchFields>(EMPTY);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<SearchFields>) => setFields({ ...fields, ...change });

  const search = async () => {
    setBusy(true);
    try {
      const found = await api.post(
        '/images/search',
        { query: imageSearchQuery(props.caseId, fields), limit: 500 },
        { schema: ImageSearchResponseSchema },
      );
      props.onFound(new Set(found.data.map((image) => image.id)));
      props.onClose();
    } catch (error) {
      notifications.show({ color: 'red', title: t('caseImages.search.failed'), message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('caseImages.search.title')}
      centered
      data-testid="image-search-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('caseImages.search.displayName')}
            value={fields.displayName}
            onChange={(event) => set({ displayName: event.currentTarget.value })}
            data-testid="image-search-name"
          />
          <Select
            label={t('caseImages.search.organ')}
            data={organOptions}
            searchable
            clearable
            value={fields.organ}
            onChange={(organ) => set({ organ })}
          />
          <Select
            label={t('caseImages.search.specimenType')}
            data={SPECIMEN_TYPES.map((type) => ({ value: type, label: t(`caseList.specimenTypes.${type}`) }))}
            clearable
            value={fields.specimenType}
            onChange={(specimenType) => set({ specimenType })}
          />
          <Select
            label={t('caseImages.search.modelName')}
            data={modelOptions}
            searchable
            clearable
            value={fields.modelName}
            onChange={(modelName) => set({ modelName })}
          />
          <TextInput
            label={t('caseImages.search.imageTag')}
            value={fields.imageTag}
            onChange={(event) => set({ imageTag: event.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setFields(EMPTY)}>
              {t('caseImages.search.clear')}
            </Button>
            <Button type="submit" loading={busy} data-testid="image-search-submit">
              {t('caseImages.search.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
