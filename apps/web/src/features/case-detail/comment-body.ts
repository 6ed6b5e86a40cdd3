/** A piece of a comment's text: plain, or an `@name` mention (highlighted). */
export interface CommentPart {
  text: string;
  mention: boolean;
}

// `@` at the start or after a blank, then a name of letters, digits, dots, dashes or underscores (e-mail local parts).
const MENTION = /(^|\s)(@[\p{L}\p{N}._-]+)/gu;

/** Splits a comment into text and mentions, keeping every character. */
export function splitMentions(body: string): CommentPart[] {
  const parts: CommentPart[] = [];
  let last = 0;
  for (const match of body.matchAll(MENTION)) {
    const start = (match.index ?? 0) + (match[1]?.length ?? 0);
    const mention = match[2] ?? '';
    if (start > last) parts.push({ text: body.slice(last, start), mention: false });
    parts.push({ text: mention, mention: true });
    last = start + mention.length;
  }
  if (last < body.length) parts.push({ text: body.slice(last), mention: false });
  return parts;
}
