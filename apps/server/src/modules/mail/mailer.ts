import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { nodemailer } from '../../on-first-use.ts';

export interface MailSettings {
  /** smtp(s)://user:password@host:port; without it mail goes to `outboxDir`. */
  smtpUrl?: string;
  from: string;
  outboxDir: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** What the outbox keeps of a mail: the fields super users read in the app, and the full message. */
export interface OutboxEntry extends Mail {
  id: string;
  from: string;
  sentAt: string;
}

/**
 * Sends through SMTP when SMTP_URL is set; otherwise writes each mail to a file in DATA_DIR/outbox, so an
 * installation without a mail server still delivers invitations (a super user reads and forwards them).
 */
export function createMailer(settings: MailSettings): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer().createTransport(settings.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: settings.from, ...mail });
      },
    };
  }
  return {
    async send(mail) {
      const sentAt = new Date().toISOString();
      // A sortable name: newest last in a plain listing, and no two mails of one millisecond collide.
      const id = `${sentAt.replace(/[-:.]/g, '')}-${randomUUID()}`;
      const entry: OutboxEntry = { id, from: settings.from, sentAt, ...mail };
      await fs.mkdir(settings.outboxDir, { recursive: true });
      const file = path.join(settings.outboxDir, `${id}.json`);
      await fs.writeFile(`${file}.partial`, JSON.stringify(entry, null, 2));
      await fs.rename(`${file}.partial`, file);
    },
  };
}

const OUTBOX_ID = /^[0-9TZ]+-[0-9a-f-]{36}$/;

/** The outbox's mails, newest first. */
export async function listOutbox(outboxDir: string, limit = 100): Promise<OutboxEntry[]> {
  const names = await fs.readdir(outboxDir).catch(() => [] as string[]);
  const ids = names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => OUTBOX_ID.test(id))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(ids.map(async (id) => readOutboxEntry(outboxDir, id) as Promise<OutboxEntry>));
}

/** One mail of the outbox, or null for an unknown (or malformed) id. */
export async function readOutboxEntry(outboxDir: string, id: string): Promise<OutboxEntry | null> {
  if (!OUTBOX_ID.test(id)) return null;
  const text = await fs.readFile(path.join(outboxDir, `${id}.json`), 'utf8').catch(() => null);
  return text == null ? null : (JSON.parse(text) as OutboxEntry);
}
