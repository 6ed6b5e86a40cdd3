/** Set by /signed-out for the sign-in that follows it, which then tells the user they signed out. */
const SIGNED_OUT_KEY = 'pathology.signedOut';

export function rememberSignedOut(): void {
  sessionStorage.setItem(SIGNED_OUT_KEY, '1');
}

/** Whether the user just signed out; the flag is used once. */
export function takeSignedOut(): boolean {
  const signedOut = sessionStorage.getItem(SIGNED_OUT_KEY) === '1';
  sessionStorage.removeItem(SIGNED_OUT_KEY);
  return signedOut;
}
