import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, resources, type Language } from './index.ts';

/**
 * Display names of catalogue values (organs, AI models, AI labels, contract plans). The stored values stay the
 * English identifiers the contract and the models use; only what is shown changes with the language.
 */
export type CatalogueGroup = 'organs' | 'models' | 'aiLabels' | 'plans';

/** The shown name of `value` in `language`; a value the catalogue does not know (an operator's model label) as is. */
export function catalogueName(group: CatalogueGroup, value: string, language: Language): string {
  const names: Readonly<Record<string, string>> = resources[language].translation.catalogue[group];
  return Object.hasOwn(names, value) ? (names[value] ?? value) : value;
}

/** catalogueName in the UI language; re-renders on a language switch. */
export function useCatalogueName(): (group: CatalogueGroup, value: string) => string {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  return useCallback((group: CatalogueGroup, value: string) => catalogueName(group, value, language), [language]);
}

/** Select options for catalogue values: the stored value, shown by its name in the UI language. */
export function useCatalogueOptions(
  group: CatalogueGroup,
  values: readonly string[],
): { value: string; label: string }[] {
  const name = useCatalogueName();
  return useMemo(() => values.map((value) => ({ value, label: name(group, value) })), [group, values, name]);
}
