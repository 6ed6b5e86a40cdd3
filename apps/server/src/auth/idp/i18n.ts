export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Remembers the language chosen on the sign-in page (only the provider's pages read it). */
export const LANGUAGE_COOKIE = 'pathology_idp_lang';

const TEXTS = {
  ja: {
    signIn: 'サインイン',
    lead: 'アカウントのメールアドレスとパスワードを入力してください。',
    email: 'メールアドレス',
    password: 'パスワード',
    submit: 'サインイン',
    cancel: 'キャンセル',
    otherLanguage: 'English',
    invalidCredentials: 'メールアドレスまたはパスワードが正しくありません。',
    tooManyAttempts: (seconds: number) =>
      seconds < 60
        ? `試行回数が多すぎます。${seconds} 秒後にもう一度お試しください。`
        : `試行回数が多すぎます。${Math.ceil(seconds / 60)} 分後にもう一度お試しください。`,
    demoTitle: 'デモアカウント',
    demoLead: '「入力」を押すとフォームに入力されます。',
    role: '役割',
    fill: '入力',
    expiredTitle: 'サインインを続けられません',
    expired: 'サインインの有効期限が切れたか、別のタブで完了しました。アプリに戻って、もう一度サインインしてください。',
    backToApp: 'アプリに戻る',
    errorTitle: 'エラーが発生しました',
    signOutTitle: 'サインアウト',
    signOutQuestion: 'Pathology slides からサインアウトしますか？',
    signOutYes: 'サインアウトする',
    signOutNo: 'サインインしたままにする',
    signingOut: 'サインアウトしています…',
    continue: '続ける',
    signedOutTitle: 'サインアウトしました',
    signedOut: 'Pathology slides からサインアウトしました。',
    signInAgain: 'もう一度サインイン',
  },
  en: {
    signIn: 'Sign in',
    lead: 'Enter the e-mail address and password of your account.',
    email: 'E-mail',
    password: 'Password',
    submit: 'Sign in',
    cancel: 'Cancel',
    otherLanguage: '日本語',
    invalidCredentials: 'E-mail or password is incorrect.',
    tooManyAttempts: (seconds: number) => `Too many attempts. Try again in ${inSecondsOrMinutes(seconds)}.`,
    demoTitle: 'Demo accounts',
    demoLead: 'Press "Use" to fill in the form.',
    role: 'Role',
    fill: 'Use',
    expiredTitle: 'Sign-in cannot continue',
    expired: 'This sign-in has expired or was completed in another tab. Go back to the app and sign in again.',
    backToApp: 'Back to the app',
    errorTitle: 'Something went wrong',
    signOutTitle: 'Sign out',
    signOutQuestion: 'Do you want to sign out of Pathology slides?',
    signOutYes: 'Sign out',
    signOutNo: 'Stay signed in',
    signingOut: 'Signing out…',
    continue: 'Continue',
    signedOutTitle: 'Signed out',
    signedOut: 'You have signed out of Pathology slides.',
    signInAgain: 'Sign in again',
  },
} as const;

/** "1 second", "45 seconds", "3 minutes": whole minutes from one minute on, rounded up. */
function inSecondsOrMinutes(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export type Texts = (typeof TEXTS)[Language];

export function texts(language: Language): Texts {
  return TEXTS[language];
}

/** Japanese role descriptions of the demo accounts (DEMO_ACCOUNTS carries the English ones), by key. */
export const DEMO_ROLE_JA: Record<string, string> = {
  readOnly: 'Sakura Central Hospital と Northern Regional Hospital の閲覧のみ (read_only)',
  member: 'Sakura Central Hospital・Sakura University Hospital・Northern Regional Hospital のメンバー',
  admin: 'Sakura Central Hospital・Sakura University Hospital・Harbor Dermatopathology の管理者',
  owner: 'Sakura Medical Group 契約と、その 3 つのグループの所有者',
  staff: '提供者の社員: 提供者自身のグループ PathoLink Support のメンバー',
  super: 'スーパーユーザー: すべてのグループを閲覧、お知らせの投稿、CSV のインポートとエクスポート',
};

export function asLanguage(value: unknown): Language | undefined {
  return LANGUAGES.find((language) => language === value);
}

/**
 * The page language: an explicit choice (link or form), then the remembered choice, then the
 * client's ui_locales (space-separated, most preferred first), else Japanese (the product default).
 */
export function pickLanguage(choice: unknown, cookieHeader: string | undefined, uiLocales: unknown): Language {
  const remembered = asLanguage(readCookie(cookieHeader, LANGUAGE_COOKIE));
  const preferred =
    typeof uiLocales === 'string'
      ? uiLocales
          .split(/\s+/)
          .map((tag) => asLanguage(tag.toLowerCase().split('-')[0]))
          .find((language) => language != null)
      : undefined;
  return asLanguage(choice) ?? remembered ?? preferred ?? 'ja';
}

export function languageCookie(language: Language, secure: boolean): string {
  const attributes = [`${LANGUAGE_COOKIE}=${language}`, 'Path=/oidc', 'Max-Age=31536000', 'SameSite=Lax', 'HttpOnly'];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
