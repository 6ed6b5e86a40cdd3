/**
 * The @mention rule of comments, a pure function of the text and the people who may be mentioned
 * (the members of the case's owner group).
 *
 * 1. Handles. A member answers to each of: their display name, "firstName lastName", and the
 *    local part of their e-mail (before the last "@"). Empty handles are dropped.
 * 2. Comparison. Text and handles are compared after Unicode NFKC (so a full-width "＠" or
 *    full-width letters typed with a Japanese input method count as their ASCII forms), lower
 *    case, and with every run of blanks (including the ideographic space) read as one space.
 * 3. Where a mention starts. At an "@" that is not inside an e-mail address: the character before
 *    it, if any, is not an ASCII letter, digit or one of `. _ % + -`.
 *    "taro@example.com" mentions nobody; "(@taro)" and "山田さん@taro" do.
 * 4. What it names. The longest handle that the text right after the "@" starts with, and that
 *    ends at a boundary: when the handle ends in an ASCII letter, digit or "_", the next character
 *    must not be one of those, nor a ". - +" followed by one (so "@tom" does not name "tom" in
 *    "@tomas" or "@tom.smith", but does in "@tom, …" or "@tom."). A handle ending in any other
 *    character, such as a Japanese name, needs no boundary: "@山田さん" names "山田".
 *    When several members share that longest handle, all of them are named: an extra notice is
 *    better than a missed one, and the text cannot tell them apart.
 * 5. Result. Each member once, in the order first named. Leaving out the author is the caller's
 *    choice (see comment.service.ts).
 */

export interface MentionCandidate {
  accountId: string;
  displayName: string | null;
  firstName: string;
  lastName: string;
  email: string;
}

const EMAIL_CHARACTER = /[a-z0-9._%+-]/;
const ASCII_WORD = /[a-z0-9_]/;
const JOINER = /[.+-]/;

/** NFKC, lower case, runs of blanks as one space (rule 2). */
export function normalizeMentionText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ');
}

/** The handles a member answers to, normalized (rule 1). */
export function mentionHandles(candidate: MentionCandidate): string[] {
  const at = candidate.email.lastIndexOf('@');
  const names = [
    candidate.displayName ?? '',
    `${candidate.firstName} ${candidate.lastName}`,
    at > 0 ? candidate.email.slice(0, at) : '',
  ];
  return [...new Set(names.map((name) => normalizeMentionText(name).trim()).filter((name) => name !== ''))];
}

/** Rule 4's boundary after a handle that ends just before `end`. */
function endsAtBoundary(handle: string, text: string, end: number): boolean {
  if (!ASCII_WORD.test(handle.at(-1) ?? '')) return true;
  const next = text[end] ?? '';
  if (ASCII_WORD.test(next)) return false;
  return !(JOINER.test(next) && ASCII_WORD.test(text[end + 1] ?? ''));
}

/** Account ids of the members the text mentions, each once, in the order first named. */
export function findMentions(text: string, candidates: readonly MentionCandidate[]): string[] {
  const normalized = normalizeMentionText(text);
  const handles = candidates
    .flatMap((candidate) => mentionHandles(candidate).map((handle) => ({ handle, accountId: candidate.accountId })))
    .sort((a, b) => b.handle.length - a.handle.length);
  const found = new Set<string>();
  for (let at = normalized.indexOf('@'); at !== -1; at = normalized.indexOf('@', at + 1)) {
    if (at > 0 && EMAIL_CHARACTER.test(normalized[at - 1]!)) continue;
    const start = at + 1;
    let longest = 0;
    for (const { handle, accountId } of handles) {
      if (handle.length < longest) break;
      if (normalized.startsWith(handle, start) && endsAtBoundary(handle, normalized, start + handle.length)) {
        longest = handle.length;
        found.add(accountId);
      }
    }
  }
  return [...found];
}

/**
 * Members whose handles start with what was typed after "@" (or whose names have a word starting
 * with it), for the comment box's suggestions: at most `limit`, by name.
 */
export function suggestMentions(
  candidates: readonly MentionCandidate[],
  typed: string,
  limit = 10,
): { accountId: string; name: string; handle: string }[] {
  const query = normalizeMentionText(typed).trim();
  return candidates
    .filter((candidate) =>
      mentionHandles(candidate).some(
        (handle) => handle.startsWith(query) || handle.split(' ').some((word) => word.startsWith(query)),
      ),
    )
    .map((candidate) => {
      const name =
        candidate.displayName?.trim() || `${candidate.firstName} ${candidate.lastName}`.trim() || candidate.email;
      return { accountId: candidate.accountId, name, handle: name };
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit);
}
