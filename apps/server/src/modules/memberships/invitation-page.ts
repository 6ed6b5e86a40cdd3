import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asLanguage, pickLanguage, type Language } from '../../auth/idp/i18n.ts';
import { field, registerFormParser, sendPage } from '../../auth/idp/interactions.ts';
import { escapeHtml, messageCard, renderPage } from '../../auth/idp/layout.ts';
import { INVITATION_PATH, type InvitationService, type OpenInvitation } from './invitation.service.ts';

export const MIN_PASSWORD_LENGTH = 10;

const TEXTS = {
  ja: {
    title: '招待',
    toGroup: (name: string) => `グループ「${name}」に招待されています。`,
    toContract: (name: string) => `契約「${name}」の所有者として招待されています。`,
    setPassword: 'サインインに使うパスワードを設定してください。',
    password: 'パスワード',
    confirm: 'パスワード (確認)',
    accept: '招待を受ける',
    acceptExisting: '今のパスワードでサインインできます。',
    tooShort: `パスワードは ${MIN_PASSWORD_LENGTH} 文字以上にしてください。`,
    mismatch: 'パスワードが一致しません。',
    invalidTitle: '招待リンクが無効です',
    invalid: 'このリンクは期限切れか、すでに使われたか、正しくありません。招待した人に再送を依頼してください。',
    doneTitle: '招待を受けました',
    done: 'メールアドレスと設定したパスワードでサインインしてください。',
    signIn: 'サインイン',
    otherLanguage: 'English',
  },
  en: {
    title: 'Invitation',
    toGroup: (name: string) => `You are invited to the group "${name}".`,
    toContract: (name: string) => `You are invited to own the contract "${name}".`,
    setPassword: 'Choose the password you will sign in with.',
    password: 'Password',
    confirm: 'Password (again)',
    accept: 'Accept the invitation',
    acceptExisting: 'You can sign in with your current password.',
    tooShort: `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
    mismatch: 'The passwords do not match.',
    invalidTitle: 'This invitation link is not valid',
    invalid:
      'The link has expired, has been used already, or is not correct. Ask the person who invited you to send it again.',
    doneTitle: 'Invitation accepted',
    done: 'Sign in with your e-mail address and the password you chose.',
    signIn: 'Sign in',
    otherLanguage: '日本語',
  },
} as const;

const other = (language: Language): Language => (language === 'ja' ? 'en' : 'ja');

/**
 * The page an invitation mail links to: the invited person sets a password (built-in sign-in) or just
 * accepts (an account that already has one, or an external identity provider), once. The token in the
 * address is the only secret; an unknown, used or expired one changes nothing.
 */
export async function invitationPageRoutes(
  app: FastifyInstance,
  options: { invitations: InvitationService; builtInSignIn: boolean; appUrl: string },
): Promise<void> {
  registerFormParser(app);

  const languageOf = (request: FastifyRequest) =>
    pickLanguage(
      field(request.query, 'lang') ?? field(request.body, 'lang'),
      undefined,
      request.headers['accept-language']?.split(',')[0],
    );

  function invalid(reply: FastifyReply, language: Language) {
    const t = TEXTS[language];
    const page = renderPage({
      language,
      title: t.invalidTitle,
      body: messageCard({ title: t.invalidTitle, message: t.invalid }),
    });
    return sendPage(reply.status(404), page);
  }

  function form(reply: FastifyReply, language: Language, token: string, invitation: OpenInvitation, error?: string) {
    const t = TEXTS[language];
    const needsPassword = options.builtInSignIn && !invitation.hasPassword;
    const action = `${INVITATION_PATH}/${encodeURIComponent(token)}`;
    const languageLink = `<a class="lang" href="${action}?lang=${other(language)}">${t.otherLanguage}</a>`;
    const intro =
      invitation.kind === 'organization' ? t.toGroup(invitation.targetName) : t.toContract(invitation.targetName);
    const passwordFields = needsPassword
      ? `<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required autofocus>
<label for="confirm">${t.confirm}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>`
      : '';
    const body = `<div class="card">
<div class="card-head"><h1>${t.title}</h1>${languageLink}</div>
<p class="lead">${escapeHtml(intro)}<br>${escapeHtml(invitation.email)}</p>
${error ? `<div class="alert" role="alert" data-testid="invitation-error">${escapeHtml(error)}</div>` : ''}
<form method="post" action="${action}">
<input type="hidden" name="lang" value="${language}">
<p>${needsPassword ? t.setPassword : options.builtInSignIn ? t.acceptExisting : ''}</p>
${passwordFields}
<button class="button" type="submit">${t.accept}</button>
</form>
</div>`;
    return sendPage(reply.status(error ? 422 : 200), renderPage({ language, title: t.title, body }));
  }

  app.get(`${INVITATION_PATH}/:token`, { schema: { hide: true } }, async (request, reply) => {
    const language = languageOf(request);
    const token = field(request.params, 'token') ?? '';
    const invitation = await options.invitations.open(token);
    return invitation == null ? invalid(reply, language) : form(reply, language, token, invitation);
  });

  app.post(`${INVITATION_PATH}/:token`, { schema: { hide: true } }, async (request, reply) => {
    const language = asLanguage(field(request.body, 'lang')) ?? languageOf(request);
    const t = TEXTS[language];
    const token = field(request.params, 'token') ?? '';
    const invitation = await options.invitations.open(token);
    if (invitation == null) return invalid(reply, language);
    let password: string | null = null;
    if (options.builtInSignIn && !invitation.hasPassword) {
      password = field(request.body, 'password') ?? '';
      if (password.length < MIN_PASSWORD_LENGTH) return form(reply, language, token, invitation, t.tooShort);
      if (password !== field(request.body, 'confirm')) return form(reply, language, token, invitation, t.mismatch);
    }
    if (!(await options.invitations.accept(token, password))) return invalid(reply, language);
    const actions = `<a class="button" data-testid="invitation-sign-in" href="${escapeHtml(options.appUrl)}/">${t.signIn}</a>`;
    const page = renderPage({
      language,
      title: t.doneTitle,
      body: messageCard({ title: t.doneTitle, message: t.done, actions }),
    });
    return sendPage(reply, page);
  });
}
