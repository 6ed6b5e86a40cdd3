import { DEMO_ACCOUNTS } from '../src/db/seed/demo-accounts.ts';
import type { TestContext } from './test-app.ts';

export type DemoKey = (typeof DEMO_ACCOUNTS)[number]['key'];

/** Headers of a token for a seeded demo account, as its first sign-in would present (linked by e-mail). */
export async function demoAuth(t: TestContext, key: DemoKey): Promise<{ authorization: string }> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === key)!;
  const token = await t.issuer.sign({ sub: `demo-${key}`, email: account.email, superUser: key === 'super' });
  return { authorization: `Bearer ${token}` };
}
