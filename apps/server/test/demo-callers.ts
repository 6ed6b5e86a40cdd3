import { DEMO_ACCOUNTS } from '../src/db/seed/demo-accounts.ts';
import type { TestContext } from './test-app.ts';

export type DemoKey = (typeof DEMO_ACCOUNTS)[number]['key'];

/** Headers of a token for a seeded demo account, as its first sign-in would present (linked by e-mail). */
export async function demoAuth(t: TestContext, key: DemoKey): Promise<{ authorization: string }> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === key)!;
  const token = await t.issuer.sign({ sub: `demo-${key}`, email: account.email, superUser: key === 'super' });
  return { authorization: `Bearer ${token}` };
}

/** A call to `/api/v1` as a demo account; PATCH bodies go as merge-patch, as the API takes updates. */
export async function demoCall(
  t: TestContext,
  key: DemoKey,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: {
      ...(await demoAuth(t, key)),
      ...(method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}),
    },
    ...(payload ? { payload } : {}),
  });
}
