import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Long enough for a few keystrokes to make one search, short enough to feel like filtering as one types. */
const TYPING_PAUSE_MS = 400;

/** Full-width letters and digits, which a Japanese input method types by default, searched as the ASCII they mean. */
const asSearched = (text: string) => text.normalize('NFKC').trim();

interface CaseNumberFilterProps {
  /** The filter in the address. */
  value: string;
  onChange: (text: string) => void;
}

/**
 * The case-number filter of the column heading: it filters once typing pauses, at once on Enter or on leaving the
 * field. While an input method composes (Japanese kana before conversion) the text is not a case number yet:
 * it waits for the composition's end, and Enter then confirms the conversion rather than filtering.
 */
export function CaseNumberFilter({ value, onChange }: CaseNumberFilterProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const composing = useRef(false);
  // The address changed elsewhere (reset, back): show it, unless it is what is typed already, trailing space kept.
  useEffect(() => setText((current) => (asSearched(current) === value ? current : value)), [value]);
  const commit = (next: string) => {
    if (asSearched(next) !== value) onChange(asSearched(next));
  };
  const commitSoon = useDebouncedCallback(commit, TYPING_PAUSE_MS);
  const commitNow = () => {
    commitSoon.cancel();
    commit(text);
  };

  return (
    <TextInput
      size="xs"
      w={120}
      value={text}
      placeholder={t('caseList.caseNumberFilter.placeholder')}
      aria-label={t('caseList.caseNumberFilter.label')}
      leftSection={<IconSearch size={12} />}
      onChange={(event) => {
        setText(event.currentTarget.value);
        if (!composing.current) commitSoon(event.currentTarget.value);
      }}
      onCompositionStart={() => {
        composing.current = true;
        commitSoon.cancel();
      }}
      onCompositionEnd={(event) => {
        composing.current = false;
        commitSoon(event.currentTarget.value);
      }}
      onBlur={commitNow}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !event.nativeEvent.isComposing) commitNow();
      }}
      styles={{ input: { height: 24, minHeight: 24 } }}
      data-testid="case-number-filter"
    />
  );
}
