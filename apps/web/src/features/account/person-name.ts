import type { Account } from '@pathology/contract';

type NameParts = Pick<Account, 'firstName' | 'lastName' | 'displayName' | 'email'>;

/** Full name in the language's order: family name first in Japanese, given name first in English. */
export function fullName(account: Pick<Account, 'firstName' | 'lastName'>, language: string): string {
  const first = account.firstName.trim();
  const last = account.lastName.trim();
  const parts = language === 'ja' ? [last, first] : [first, last];
  return parts.filter((part) => part !== '').join(' ');
}

/** The name the app shows for an account: its display name, else its full name, else its e-mail. */
export function accountName(account: NameParts, language: string): string {
  const display = account.displayName?.trim();
  if (display) return display;
  return fullName(account, language) || account.email;
}

/** Up to two letters for an avatar without a picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  // CJK names have no case and are often written without spaces: one character reads best.
  if (!/^[\p{Script=Latin}\d]/u.test(words[0] ?? '')) return Array.from(words[0] ?? '?')[0] ?? '?';
  const letters =
    words.length === 1
      ? Array.from(words[0] ?? '').slice(0, 2)
      : [words[0], words.at(-1)].map((w) => Array.from(w ?? '')[0]);
  return letters.join('').toUpperCase();
}
