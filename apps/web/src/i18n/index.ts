import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import attachmentsEn from '../features/attachments/i18n/en.json';
import attachmentsJa from '../features/attachments/i18n/ja.json';
import bulkUploadEn from '../features/bulk-upload/i18n/en.json';
import bulkUploadJa from '../features/bulk-upload/i18n/ja.json';
import caseDetailEn from '../features/case-detail/i18n/en.json';
import caseDetailJa from '../features/case-detail/i18n/ja.json';
import caseImagesEn from '../features/case-images/i18n/en.json';
import caseImagesJa from '../features/case-images/i18n/ja.json';
import caseListEn from '../features/case-list/i18n/en.json';
import caseListJa from '../features/case-list/i18n/ja.json';
import csvEn from '../features/csv-import/i18n/en.json';
import csvJa from '../features/csv-import/i18n/ja.json';
import detectionsEn from '../features/detections/i18n/en.json';
import detectionsJa from '../features/detections/i18n/ja.json';
import drawingsEn from '../features/drawings/i18n/en.json';
import drawingsJa from '../features/drawings/i18n/ja.json';
import imageNotesEn from '../features/image-notes/i18n/en.json';
import imageNotesJa from '../features/image-notes/i18n/ja.json';
import noticesEn from '../features/notices/i18n/en.json';
import noticesJa from '../features/notices/i18n/ja.json';
import predictionsEn from '../features/predictions/i18n/en.json';
import predictionsJa from '../features/predictions/i18n/ja.json';
import uploadsEn from '../features/uploads/i18n/en.json';
import uploadsJa from '../features/uploads/i18n/ja.json';
import viewerEn from '../features/viewer/i18n/en.json';
import viewerJa from '../features/viewer/i18n/ja.json';
import viewerColourEn from '../features/viewer-colour/i18n/en.json';
import viewerColourJa from '../features/viewer-colour/i18n/ja.json';
import groupAdminEn from '../features/organizations/i18n/en.json';
import groupAdminJa from '../features/organizations/i18n/ja.json';
import usersEn from '../features/users/i18n/en.json';
import usersJa from '../features/users/i18n/ja.json';
import compareEn from '../features/compare/i18n/en.json';
import compareJa from '../features/compare/i18n/ja.json';
import contractsEn from '../features/contracts/i18n/en.json';
import contractsJa from '../features/contracts/i18n/ja.json';
import catalogueEn from './catalogue/en.json';
import catalogueJa from './catalogue/ja.json';
import en from './en.json';
import ja from './ja.json';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'ja';
export const FALLBACK_LANGUAGE: Language = 'en';
/** localStorage key holding the user's explicit language choice. */
export const LANGUAGE_STORAGE_KEY = 'language';

/** Large features keep their texts in a catalogue of their own, mounted under one key of the translation. */
export const resources = {
  ja: {
    translation: {
      ...ja,
      caseList: caseListJa,
      caseDetail: caseDetailJa,
      uploads: uploadsJa,
      bulkUpload: bulkUploadJa,
      caseImages: caseImagesJa,
      attachments: attachmentsJa,
      viewer: viewerJa,
      compare: compareJa,
      viewerColour: viewerColourJa,
      drawings: drawingsJa,
      detections: detectionsJa,
      imageNotes: imageNotesJa,
      predictions: predictionsJa,
      csvImport: csvJa.import,
      notices: noticesJa,
      csvExport: csvJa.export,
      groupAdmin: groupAdminJa,
      users: usersJa,
      contracts: contractsJa,
      catalogue: catalogueJa,
    },
  },
  en: {
    translation: {
      ...en,
      caseList: caseListEn,
      caseDetail: caseDetailEn,
      uploads: uploadsEn,
      bulkUpload: bulkUploadEn,
      caseImages: caseImagesEn,
      attachments: attachmentsEn,
      viewer: viewerEn,
      compare: compareEn,
      viewerColour: viewerColourEn,
      drawings: drawingsEn,
      detections: detectionsEn,
      imageNotes: imageNotesEn,
      predictions: predictionsEn,
      csvImport: csvEn.import,
      notices: noticesEn,
      csvExport: csvEn.export,
      groupAdmin: groupAdminEn,
      users: usersEn,
      contracts: contractsEn,
      catalogue: catalogueEn,
    },
  },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

// Storage can throw (privacy modes, sandboxed frames); the app must still start in the default language.
function readStoredLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Switches the UI language and remembers the choice for the next visit. */
export async function changeLanguage(language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisted, but the switch itself still applies to this session.
  }
  await i18n.changeLanguage(language);
}

/** The active UI language, narrowed to the supported ones. */
export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

// Screen readers and the browser's font selection for CJK glyphs both read <html lang>.
i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

// Resources are bundled, so initialise synchronously: the first render already has its strings, no Suspense flash.
void i18n.use(initReactI18next).init({
  resources,
  lng: readStoredLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: LANGUAGES,
  initAsync: false,
  interpolation: { escapeValue: false },
});

export default i18n;
