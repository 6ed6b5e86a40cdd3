/** A piece of a mail's text: plain, or an address of this app to show as a link. */
export type MailTextPart = { text: string } | { text: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Trailing punctuation of a sentence is not part of the address it ends with. */
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * Splits a mail's text into plain parts and links. Only http(s) addresses on the app's own origin (PUBLIC_URL, which
 * serves this page) become links: a mail's text is not trusted to send the super user anywhere else.
 */
export function mailTextParts(text: string, appOrigin: string): MailTextPart[] {
  const parts: MailTextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const candidate = match[0].replace(TRAILING, '');
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      continue;
    }
    if (url.origin !== appOrigin) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: candidate, href: url.href });
    last = match.index + candidate.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
