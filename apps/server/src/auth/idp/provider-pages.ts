import type { KoaContextWithOIDC } from 'oidc-provider';
import { pickLanguage, texts, type Language } from './i18n.ts';
import { escapeHtml, messageCard, renderPage, type RenderedPage } from './layout.ts';

const LOGOUT_FORM_ID = 'op.logoutForm';
const AUTO_SUBMIT_SCRIPT = `document.getElementById('${LOGOUT_FORM_ID}').submit();`;

/** The pages oidc-provider renders itself (sign-out, errors), in the sign-in page's look and language. */
export interface ProviderPages {
  logoutSource: (ctx: KoaContextWithOIDC, form: string) => Promise<void>;
  postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => Promise<void>;
  renderError: (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }) => Promise<void>;
}

export function createProviderPages(options: { appUrl: string }): ProviderPages {
  const appLink = (label: string): string =>
    `<a class="button" href="${escapeHtml(options.appUrl)}">${escapeHtml(label)}</a>`;

  return {
    async logoutSource(ctx, form) {
      const language = languageOf(ctx);
      const t = texts(language);
      // A request carrying a valid id_token_hint comes from the app's own "Sign out" button: the user
      // already chose, so the form submits itself. Anything else (a bare link) asks first, which keeps
      // other sites from signing people out.
      if (ctx.oidc.entities.IdTokenHint != null) {
        const body = `${form}<input type="hidden" name="logout" value="yes" form="${LOGOUT_FORM_ID}">
${messageCard({
  title: t.signOutTitle,
  message: t.signingOut,
  actions: `<noscript><button class="button" type="submit" form="${LOGOUT_FORM_ID}">${escapeHtml(t.continue)}</button></noscript>`,
})}`;
        send(ctx, renderPage({ language, title: t.signOutTitle, body, scripts: [AUTO_SUBMIT_SCRIPT] }));
        return;
      }
      const actions = `<div class="stack">
<button class="button" type="submit" form="${LOGOUT_FORM_ID}" name="logout" value="yes" autofocus>${escapeHtml(t.signOutYes)}</button>
<button class="button secondary" type="submit" form="${LOGOUT_FORM_ID}">${escapeHtml(t.signOutNo)}</button>
</div>`;
      const body = `${form}${messageCard({ title: t.signOutTitle, message: t.signOutQuestion, actions })}`;
      send(ctx, renderPage({ language, title: t.signOutTitle, body }));
    },

    async postLogoutSuccessSource(ctx) {
      const language = languageOf(ctx);
      const t = texts(language);
      const body = messageCard({ title: t.signedOutTitle, message: t.signedOut, actions: appLink(t.signInAgain) });
      send(ctx, renderPage({ language, title: t.signedOutTitle, body }));
    },

    async renderError(ctx, out) {
      const language = languageOf(ctx);
      const t = texts(language);
      const detail = out.error_description == null ? out.error : `${out.error_description} (${out.error})`;
      const body = messageCard({ title: t.errorTitle, message: detail, actions: appLink(t.backToApp) });
      send(ctx, renderPage({ language, title: t.errorTitle, body }));
    },
  };
}

function languageOf(ctx: KoaContextWithOIDC): Language {
  let uiLocales: unknown;
  try {
    uiLocales = ctx.oidc.params?.ui_locales;
  } catch {
    // Errors raised before the request's parameters were read have none to offer.
  }
  return pickLanguage(undefined, ctx.get('cookie'), uiLocales);
}

function send(ctx: KoaContextWithOIDC, page: RenderedPage): void {
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
  ctx.body = page.html;
}
