import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE, pickLanguage, texts } from './i18n.ts';
import { renderLoginPage } from './login-page.ts';

const base = { language: 'ja', interactionPath: '/oidc/interaction/abc' } as const;

describe('sign-in page', () => {
  it('escapes everything it echoes', () => {
    const { html } = renderLoginPage({
      ...base,
      email: '"><script>alert(1)</script>',
      error: '<b>bad</b>',
      demoAccounts: [{ email: 'a"b@example.test', password: "p'w<", role: '<i>role</i>' }],
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('&lt;b&gt;bad&lt;/b&gt;');
    expect(html).toContain('data-email="a&quot;b@example.test" data-password="p&#39;w&lt;"');
    expect(html).toContain('&lt;i&gt;role&lt;/i&gt;');
  });

  it('puts the cursor in the e-mail field, or in the password field when the e-mail is kept', () => {
    expect(renderLoginPage(base).html).toMatch(/id="email"[^>]*autofocus/);
    expect(renderLoginPage({ ...base, email: 'a@example.test' }).html).toMatch(/id="password"[^>]*autofocus/);
  });

  it('allows exactly its own style and script by hash', () => {
    const page = renderLoginPage({ ...base, demoAccounts: [{ email: 'a@b.test', password: 'x', role: 'r' }] });
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.html)?.[1] ?? '';
    const digest = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(page.contentSecurityPolicy).toContain(`script-src 'sha256-${digest(script)}'`);
    expect(page.contentSecurityPolicy).toContain(`style-src 'sha256-${digest(style)}'`);
    expect(renderLoginPage(base).contentSecurityPolicy).toContain("script-src 'none'");
  });

  it('has labels for both fields, a cancel link and a switch to the other language', () => {
    const { html } = renderLoginPage(base);
    expect(html).toContain('<label for="email">メールアドレス</label>');
    expect(html).toContain('<label for="password">パスワード</label>');
    expect(html).toContain('href="/oidc/interaction/abc/abort"');
    expect(html).toContain('href="/oidc/interaction/abc?lang=en"');
    expect(renderLoginPage({ ...base, language: 'en' }).html).toContain('href="/oidc/interaction/abc?lang=ja"');
  });
});

describe('throttled sign-in message', () => {
  it('says when to try again in seconds under a minute, else in whole minutes rounded up', () => {
    expect(texts('en').tooManyAttempts(1)).toBe('Too many attempts. Try again in 1 second.');
    expect(texts('en').tooManyAttempts(59)).toBe('Too many attempts. Try again in 59 seconds.');
    expect(texts('en').tooManyAttempts(60)).toBe('Too many attempts. Try again in 1 minute.');
    expect(texts('en').tooManyAttempts(241)).toBe('Too many attempts. Try again in 5 minutes.');
    expect(texts('ja').tooManyAttempts(30)).toBe('試行回数が多すぎます。30 秒後にもう一度お試しください。');
    expect(texts('ja').tooManyAttempts(300)).toBe('試行回数が多すぎます。5 分後にもう一度お試しください。');
  });
});

describe('page language', () => {
  const cookie = `other=1; ${LANGUAGE_COOKIE}=en`;

  it('prefers an explicit choice, then the remembered one, then ui_locales, then Japanese', () => {
    expect(pickLanguage('ja', cookie, 'en')).toBe('ja');
    expect(pickLanguage(undefined, cookie, 'ja')).toBe('en');
    expect(pickLanguage(undefined, undefined, 'fr en-GB ja')).toBe('en');
    expect(pickLanguage('de', 'x=y', 'fr')).toBe('ja');
  });
});
