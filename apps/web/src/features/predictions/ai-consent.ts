import { useSyncExternalStore } from 'react';

/** Agreement and the dismissed warning last 30 days (part 2 §9); a refusal lasts the browser session. */
const AGREEMENT_COOKIE = 'ai_agreement';
const WARNING_COOKIE = 'ai_warning_dismissed';
const REFUSAL_KEY = 'aiAgreementRefused';
const KEEP_DAYS = 30;

const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

function hasCookie(name: string): boolean {
  return document.cookie.split('; ').some((entry) => entry === `${name}=1`);
}

function setCookie(name: string): void {
  document.cookie = `${name}=1; max-age=${KEEP_DAYS * 24 * 3600}; path=/; SameSite=Lax`;
  changed();
}

function refused(): boolean {
  try {
    return sessionStorage.getItem(REFUSAL_KEY) === '1';
  } catch {
    return false;
  }
}

export const aiConsent = {
  agree: () => setCookie(AGREEMENT_COOKIE),
  dismissWarning: () => setCookie(WARNING_COOKIE),
  refuse: (): void => {
    try {
      sessionStorage.setItem(REFUSAL_KEY, '1');
    } catch {
      // Without storage the refusal holds until the page is left.
    }
    changed();
  },
};

export interface AiGroup {
  predictionEnabled: boolean;
  aiAgreementSkipped: boolean;
}

export interface AiConsentState {
  /** The agreement dialog is due: the group predicts, is not exempt, and no answer was given. */
  askAgreement: boolean;
  /** AI features may be offered (the group predicts and the user did not refuse this session). */
  aiEnabled: boolean;
  /** The user answered Disagree this session: every prediction feature is off (part 2 §4), in any group. */
  declined: boolean;
  showWarning: boolean;
}

function consentOf(group: AiGroup | undefined): AiConsentState {
  const refusedNow = refused();
  if (!group?.predictionEnabled)
    return { askAgreement: false, aiEnabled: false, declined: refusedNow, showWarning: false };
  const agreed = group.aiAgreementSkipped || hasCookie(AGREEMENT_COOKIE);
  return {
    askAgreement: !agreed && !refusedNow,
    aiEnabled: !refusedNow,
    declined: refusedNow,
    showWarning: !refusedNow && !hasCookie(WARNING_COOKIE),
  };
}

/** The AI agreement of part 2 §4 for a group, updated at once when the user answers anywhere. */
export function useAiConsent(group: AiGroup | undefined): AiConsentState {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return consentOf(group);
}
