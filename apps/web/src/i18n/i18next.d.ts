import 'i18next';
import type { resources } from './index.ts';

// Typed keys: t('no.such.key') fails the typecheck instead of rendering the raw key.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: (typeof resources)['en']['translation'] };
  }
}
