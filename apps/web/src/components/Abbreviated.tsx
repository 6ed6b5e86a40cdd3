import { Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fullTerm, splitAbbreviations } from '../i18n/abbreviations.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../i18n/index.ts';

/**
 * Text in which each known abbreviation (IDC, DCIS... part 2 §3) carries its full term in the UI language: as a
 * tooltip on hover or focus, and in the `<abbr>`'s accessible name.
 */
export function Abbreviated({ text }: { text: string }) {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  return splitAbbreviations(text).map((part, index) => {
    if (!part.abbreviation) return part.text;
    const term = fullTerm(part.abbreviation, language);
    return (
      <Tooltip
        key={index}
        label={`${part.abbreviation}: ${term}`}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <abbr
          tabIndex={0}
          aria-label={`${part.abbreviation} (${term})`}
          style={{ textDecoration: 'underline dotted', cursor: 'help' }}
          data-testid="abbreviation"
          data-full-term={term}
        >
          {part.text}
        </abbr>
      </Tooltip>
    );
  });
}
