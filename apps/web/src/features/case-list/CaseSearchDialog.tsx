import {
  Alert,
  Button,
  Divider,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { AI_MODEL_NAMES, MAX_TAG_LENGTH, ORGANS, SPECIMEN_TYPES, type CaseSearchRequest } from '@pathology/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCaseTags, useImageTags } from './case-list.queries.ts';
import { splitTags } from './list-state.ts';
import { IconSearch } from '@tabler/icons-react';
import { EMPTY_SEARCH_FORM, type SearchFormValues, type TextField } from './search-form.ts';
import { useCatalogueOptions } from '../../i18n/catalogue-names.ts';

type Visibility = NonNullable<CaseSearchRequest['visibility']>;

export interface CaseSearchDialogProps {
  opened: boolean;
  initial: SearchFormValues;
  initialVisibility: Visibility;
  /** Super users only (part 1 §6). */
  showVisibility: boolean;
  /** Only when the group may use AI (part 1 §2 "AI model (only if allowed)"). */
  showModel: boolean;
  onClose: () => void;
  onSearch: (values: SearchFormValues, visibility: Visibility) => void;
}

/** The advanced case search (part 1 §2): Clear empties the form, Cancel closes, Search applies. */
export function CaseSearchDialog(props: CaseSearchDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={650}>{t('caseList.search.title')}</Text>}
      size="xl"
    >
      {props.opened && <SearchForm {...props} />}
    </Modal>
  );
}

function SearchForm({
  initial,
  initialVisibility,
  showVisibility,
  showModel,
  onClose,
  onSearch,
}: CaseSearchDialogProps) {
  const { t } = useTranslation();
  const organOptions = useCatalogueOptions('organs', ORGANS);
  const modelOptions = useCatalogueOptions('models', AI_MODEL_NAMES);
  const [values, setValues] = useState<SearchFormValues>(initial);
  const [visibility, setVisibility] = useState<Visibility>(initialVisibility);
  // Text typed after the last comma is not a tag yet for TagsInput, but it is one for the user.
  const [pending, setPending] = useState({ tags: '', imageTags: '' });
  const withPending = (field: 'tags' | 'imageTags') =>
    splitTags([...values[field], pending[field]]).filter((tag) => tag.length <= MAX_TAG_LENGTH);
  const caseTags = useCaseTags();
  const imageTags = useImageTags();
  const set = <K extends keyof SearchFormValues>(key: K, value: SearchFormValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));
  const text = (field: TextField, autoFocus = false) => (
    <TextInput
      size="xs"
      label={t(`caseList.search.${field}`)}
      value={values[field]}
      onChange={(event) => set(field, event.currentTarget.value)}
      autoFocus={autoFocus}
      data-testid={`search-${field}`}
    />
  );
  const tags = (field: 'tags' | 'imageTags', suggestions: readonly string[] | undefined) => (
    <TagsInput
      size="xs"
      label={t(`caseList.search.${field}`)}
      description={t('caseList.search.tagsHint')}
      value={values[field]}
      searchValue={pending[field]}
      onSearchChange={(search) => setPending((previous) => ({ ...previous, [field]: search }))}
      onChange={(next) =>
        set(
          field,
          splitTags(next).filter((tag) => tag.length <= MAX_TAG_LENGTH),
        )
      }
      data={suggestions ? [...suggestions] : []}
      splitChars={[',']}
      clearable
      comboboxProps={{ withinPortal: true }}
      data-testid={`search-${field}`}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ ...values, tags: withPending('tags'), imageTags: withPending('imageTags') }, visibility);
  };

  return (
    <form onSubmit={submit} data-testid="case-search-form">
      <Stack gap="sm">
        <Alert variant="light" color="violet" icon={<IconSearch size={16} />} py={6}>
          <Text size="xs">{t('caseList.search.wildcardTip')}</Text>
        </Alert>
        <Divider label={t('caseList.search.caseSection')} labelPosition="left" />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="xs">
          {text('caseNumber', true)}
          {text('diagnosis')}
        </SimpleGrid>
        <Group align="flex-end" gap="sm" wrap="nowrap">
          <div style={{ flex: 1 }}>{tags('tags', caseTags.data?.data)}</div>
          <SegmentedControl
            size="xs"
            mb={2}
            value={values.tagsMatch}
            onChange={(value) => set('tagsMatch', value === 'contains-any' ? 'contains-any' : 'contains-all')}
            disabled={withPending('tags').length < 2}
            data={[
              { value: 'contains-all', label: t('caseList.search.tagsMatchAll') },
              { value: 'contains-any', label: t('caseList.search.tagsMatchAny') },
            ]}
            data-testid="search-tags-match"
          />
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="xs">
          {text('grossFindings')}
          {text('microscopicFindings')}
          {text('comments')}
          {showVisibility && (
            <Select
              size="xs"
              label={t('caseList.search.visibility')}
              value={visibility}
              onChange={(value) => setVisibility(value === 'private' || value === 'public' ? value : 'all')}
              allowDeselect={false}
              data={[
                { value: 'all', label: t('caseList.search.visibilityAll') },
                { value: 'private', label: t('caseList.search.visibilityPrivate') },
                { value: 'public', label: t('caseList.search.visibilityPublic') },
              ]}
              data-testid="search-visibility"
            />
          )}
        </SimpleGrid>
        <Divider label={t('caseList.search.imageSection')} labelPosition="left" />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="xs">
          <Select
            size="xs"
            label={t('caseList.search.organ')}
            placeholder={t('caseList.search.any')}
            data={organOptions}
            value={values.organ}
            onChange={(value) => set('organ', value)}
            searchable
            clearable
            data-testid="search-organ"
          />
          <Select
            size="xs"
            label={t('caseList.search.specimenType')}
            placeholder={t('caseList.search.any')}
            data={SPECIMEN_TYPES.map((type) => ({ value: type, label: t(`caseList.specimenTypes.${type}`) }))}
            value={values.specimenType}
            onChange={(value) => set('specimenType', value)}
            clearable
            data-testid="search-specimenType"
          />
          {showModel && (
            <Select
              size="xs"
              label={t('caseList.search.aiModel')}
              placeholder={t('caseList.search.any')}
              data={modelOptions}
              value={values.modelName}
              onChange={(value) => set('modelName', value)}
              searchable
              clearable
              data-testid="search-modelName"
            />
          )}
          {text('displayName')}
        </SimpleGrid>
        {tags('imageTags', imageTags.data?.data)}
        <Group justify="space-between" mt="xs">
          <Button
            variant="subtle"
            color="gray"
            onClick={() => {
              setValues(EMPTY_SEARCH_FORM);
              setVisibility('all');
            }}
            data-testid="search-clear"
          >
            {t('caseList.search.clear')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose} data-testid="search-cancel">
              {t('caseList.search.cancel')}
            </Button>
            <Button type="submit" leftSection={<IconSearch size={15} />} data-testid="search-submit">
              {t('caseList.search.submit')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
