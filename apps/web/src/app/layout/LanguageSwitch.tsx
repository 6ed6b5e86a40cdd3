import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, isLanguage, LANGUAGES } from '../../i18n/index.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      radius="md"
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : LANGUAGES[0]}
      onChange={(value) => {
        if (isLanguage(value)) void changeLanguage(value);
      }}
      data={LANGUAGES.map((language) => ({ value: language, label: t(`language.${language}`) }))}
    />
  );
}
