/** A text input left blank (or only spaces) means "not set", which the API takes as null. */
export function blankToNull(text: string): string | null {
  return text.trim() === '' ? null : text;
}
