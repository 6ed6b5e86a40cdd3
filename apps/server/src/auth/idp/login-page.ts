import { texts, type Language } from './i18n.ts';
import { escapeHtml, messageCard, renderPage, type RenderedPage } from './layout.ts';

export interface DemoAccountRow {
  email: string;
  password: string;
  /** Already in the page's language. */
  role: string;
}

export interface LoginPageOptions {
  language: Language;
  /** Path of the interaction, e.g. /oidc/interaction/abc (the form posts to `${path}/login`). */
  interactionPath: string;
  /** The e-mail typed before, kept after a failed attempt. */
  email?: string;
  /** A message shown above the form, already in the page's language. */
  error?: string;
  /** A word on what just happened (the user signed out), already in the page's language. */
  notice?: string;
  demoAccounts?: readonly DemoAccountRow[];
}

/** Fills the form from a demo account's row; the values come from data attributes, never from script text. */
const FILL_SCRIPT = `document.querySelectorAll('button.fill').forEach(function (button) {
  button.addEventListener('click', function () {
    var form = document.getElementById('login');
    form.elements.email.value = button.getAttribute('data-email');
    form.elements.password.value = button.getAttribute('data-password');
    form.querySelector('button[type=submit]').focus();
  });
});`;

export function renderLoginPage(options: LoginPageOptions): RenderedPage {
  const t = texts(options.language);
  const path = escapeHtml(options.interactionPath);
  const other: Language = options.language === 'ja' ? 'en' : 'ja';
  const email = options.email ?? '';
  // After a failed attempt the e-mail is kept, so the cursor goes where the user has to type.
  const focusPassword = email !== '';
  const demo = options.demoAccounts ?? [];
  const body = `<div class="card">
<div class="card-head"><h1>${escapeHtml(t.signIn)}</h1><a class="lang" href="${path}?lang=${other}" hreflang="${other}" lang="${other}">${escapeHtml(t.otherLanguage)}</a></div>
<p class="lead">${escapeHtml(t.lead)}</p>
${options.notice == null ? '' : `<div class="notice" role="status">${escapeHtml(options.notice)}</div>`}
${options.error == null ? '' : `<div class="alert" role="alert">${escapeHtml(options.error)}</div>`}
<form id="login" method="post" action="${path}/login" autocomplete="on">
<input type="hidden" name="lang" value="${options.language}">
<label for="email">${escapeHtml(t.email)}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(email)}"${focusPassword ? '' : ' autofocus'}>
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${focusPassword ? ' autofocus' : ''}>
<button class="button" type="submit">${escapeHtml(t.submit)}</button>
</form>
<a class="link" href="${path}/abort">${escapeHtml(t.cancel)}</a>
</div>
${demo.length === 0 ? '' : demoTable(options.language, demo)}`;
  return renderPage({
    language: options.language,
    title: t.signIn,
    body,
    scripts: demo.length === 0 ? [] : [FILL_SCRIPT],
    wide: demo.length > 0,
  });
}

function demoTable(language: Language, accounts: readonly DemoAccountRow[]): string {
  const t = texts(language);
  const rows = accounts
    .map((account) => {
      const email = escapeHtml(account.email);
      const password = escapeHtml(account.password);
      return `<tr><td><code>${email}</code></td><td><code>${password}</code></td><td>${escapeHtml(account.role)}</td><td><button type="button" class="fill" data-email="${email}" data-password="${password}">${escapeHtml(t.fill)}</button></td></tr>`;
    })
    .join('\n');
  return `<section class="demo" aria-labelledby="demo-title">
<h2 id="demo-title">${escapeHtml(t.demoTitle)}</h2>
<p>${escapeHtml(t.demoLead)}</p>
<div class="table"><table>
<thead><tr><th>${escapeHtml(t.email)}</th><th>${escapeHtml(t.password)}</th><th>${escapeHtml(t.role)}</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
</section>`;
}

/** Shown when the interaction is unknown, expired or belongs to another browser. */
export function renderExpiredPage(language: Language, appUrl: string): RenderedPage {
  const t = texts(language);
  return renderPage({
    language,
    title: t.expiredTitle,
    body: messageCard({
      title: t.expiredTitle,
      message: t.expired,
      actions: `<a class="button" href="${escapeHtml(appUrl)}">${escapeHtml(t.backToApp)}</a>`,
    }),
  });
}
