import { Anchor, Autocomplete, Badge, Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { caseLookupDelay, lookupMatch, retryCaseLookup } from './case-lookup.ts';
import { lookupCaseNumber, uploadQueryKeys } from './uploads.api.ts';
import type { CaseMatch, DraftCase } from './upload-dialog.state.ts';

/** Part 1 §9: the picker searches 500 ms after the last keystroke. */
export const CASE_PICKER_DEBOUNCE_MS = 500;

/**
 * Case number with live search in the group: picking or typing an existing number chooses that case; a new
 * number names a case that is created on submit.
 */
export function CasePicker({
  draft,
  organizationId,
  error,
  onChange,
  onMatch,
}: {
  draft: DraftCase;
  organizationId: string;
  error?: string;
  onChange: (caseNumber: string) => void;
  onMatch: (match: CaseMatch | null) => void;
}) {
  const { t } = useTranslation();
  const text = draft.caseNumber.trim();
  const [debounced] = useDebouncedValue(text, CASE_PICKER_DEBOUNCE_MS);
  const lookup = useQuery({
    queryKey: uploadQueryKeys.caseNumbers(organizationId, debounced),
    queryFn: ({ signal }) => lookupCaseNumber(organizationId, debounced, signal),
    enabled: debounced !== '',
    // Always asked again: a case may have been created or filled since (duplicates depend on it).
    staleTime: 0,
    retry: retryCaseLookup,
    retryDelay: caseLookupDelay,
  });

  const failed = lookup.isError && !lookup.isFetching && debounced === text;
  const match = lookupMatch({
    text,
    debounced,
    settled: lookup.data !== undefined && !lookup.isFetching,
    failed,
    found: lookup.data?.exact,
  });
  useEffect(() => {
    if (match !== undefined && draft.match === undefined) onMatch(match);
  }, [match, draft.match, onMatch]);

  const searching = text !== '' && draft.match === undefined && !failed;
  const status = text === '' || draft.match === undefined ? null : draft.match ? 'existing' : 'new';

  return (
    <Autocomplete
      label={t('uploads.dialog.caseNumber')}
      placeholder={t('uploads.dialog.caseNumberPlaceholder')}
      withAsterisk
      value={draft.caseNumber}
      onChange={onChange}
      data={lookup.data?.options ?? []}
      error={
        failed ? (
          <Group gap={6} component="span" data-testid="case-lookup-error">
            <Text span size="xs">
              {t('uploads.dialog.caseLookupFailed')}
            </Text>
            <Anchor component="button" type="button" size="xs" onClick={() => void lookup.refetch()}>
              {t('uploads.actions.retry')}
            </Anchor>
          </Group>
        ) : (
          error
        )
      }
      rightSectionWidth={status ? 110 : undefined}
      rightSection={
        searching ? (
          <Loader size="xs" />
        ) : status ? (
          <Badge size="sm" variant="light" color={status === 'new' ? 'violet' : 'gray'} data-testid="case-status">
            {t(`uploads.dialog.caseStatus.${status}`)}
          </Badge>
        ) : null
      }
      comboboxProps={{ shadow: 'md', withinPortal: true }}
      data-testid="case-picker"
    />
  );
}
