import type { Mail } from '../mail/mailer.ts';

export interface InvitationMailContent {
  to: string;
  firstName: string;
  /** The group's or contract's name. */
  target: string;
  kind: 'organization' | 'contract';
  inviterName: string;
  link: string;
  expiresAt: Date;
}

const escape = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * The invitation in Japanese and English (the invitee has not chosen a language yet), as text and HTML. The
 * link is the only secret: it carries a single-use token.
 */
export function invitationMail(content: InvitationMailContent): Mail {
  const until = content.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const ja =
    content.kind === 'organization'
      ? `${content.inviterName} さんから、グループ「${content.target}」への招待が届いています。`
      : `${content.inviterName} さんから、契約「${content.target}」の所有者としての招待が届いています。`;
  const en =
    content.kind === 'organization'
      ? `${content.inviterName} has invited you to the group "${content.target}".`
      : `${content.inviterName} has invited you to own the contract "${content.target}".`;
  const jaAction = `次のリンクを開いてパスワードを設定し、サインインしてください (${until} UTC まで有効):`;
  const enAction = `Open this link to set your password and sign in (valid until ${until} UTC):`;
  const greetingJa = content.firstName ? `${content.firstName} 様` : '';
  const greetingEn = content.firstName ? `Dear ${content.firstName},` : 'Hello,';
  const text = [greetingJa, ja, jaAction, content.link, '', '---', '', greetingEn, en, enAction, content.link, ''].join(
    '\n',
  );
  const paragraph = (line: string) => `<p>${escape(line)}</p>`;
  const link = `<p><a href="${escape(content.link)}">${escape(content.link)}</a></p>`;
  const html = [
    greetingJa && paragraph(greetingJa),
    paragraph(ja),
    paragraph(jaAction),
    link,
    '<hr>',
    paragraph(greetingEn),
    paragraph(en),
    paragraph(enAction),
    link,
  ].join('\n');
  return {
    to: content.to,
    subject: `[Pathology slides] 招待 / Invitation: ${content.target}`,
    text,
    html,
  };
}
