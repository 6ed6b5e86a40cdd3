import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAuth } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { organizations } from '../../db/schema/index.ts';
import { DEMO_GROUPS } from '../../db/seed/demo-groups.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('invitations through a real SMTP server (SMTP_URL)', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => smtp.close(() => resolve())));

  const t = useTestApp({ smtpUrl: () => `smtp://127.0.0.1:${port}` });

  it('delivers the invitation with its link to the invited address', async () => {
    await seedDemo(t.database.db);
    const [group] = (await t.database.db.select().from(organizations)).filter(
      (row) => row.name === DEMO_GROUPS.central.name,
    );
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${group!.id}/invitations`,
      headers: await demoAuth(t, 'admin'),
      payload: { email: 'smtp.person@example.test', firstName: 'Aoi', lastName: 'Ueda', roles: ['member'] },
    });
    expect(response.statusCode).toBe(201);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['smtp.person@example.test']);
    expect(received[0]!.from).toBe('no-reply@app.test');
    // Quoted-printable may fold the long link; unfold before looking for it.
    const body = received[0]!.data.replace(/=\r?\n/g, '');
    expect(body).toMatch(/http:\/\/app\.test\/invitations\/[A-Za-z0-9_-]{43}/);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/outbox', headers: await demoAuth(t, 'super') })).json(),
    ).toEqual({
      data: [],
    });
  });
});
