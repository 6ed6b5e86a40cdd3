import { DatesProvider } from '@mantine/dates';
import 'dayjs/locale/ja';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/index.ts';

/**
 * Calendars in the UI language, weeks from Monday (part 1 §9, part 3 §8). Reads the language through the hook so
 * month and weekday names follow the language switch.
 */
export function DatesLocaleProvider({ children }: { children: ReactNode }) {
  useTranslation();
  return <DatesProvider settings={{ locale: currentLanguage(), firstDayOfWeek: 1 }}>{children}</DatesProvider>;
}
