import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('mentions', () => {
  const t = useTestApp();

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    const taro = await make.account({ subject: 'taro', firstName: 'Taro', lastName: 'Yamada' });
    const mia = await make.account({ subject: 'mia', firstName: 'Mia', lastName: 'Member' });
    for (const caller of [taro, mia]) await make.join(caller, group, 'member');
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-26-9' });
    const imageId = await make.image(caseId);
    // Twelve mentions of Taro (the last from an image note, with its image), one of Mia.
    for (let i = 0; i < 12; i++) {
      await t.database.pool.query(
        `INSERT INTO mentions (case_id, image_id, mentioned_account_id, author_account_id, label, message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(days => $7))`,
        [
          caseId,
          i === 11 ? imageId : null,
          taro.accountId,
          mia.accountId,
          'S-26-9',
          `@[Taro Yamada](${taro.accountId}) look ${i}`,
          11 - i,
        ],
      );
    }
    await t.database.pool.query(
      `INSERT INTO mentions (case_id, mentioned_account_id, label, message) VALUES ($1, $2, 'S-26-9', 'for Mia')`,
      [caseId, mia.accountId],
    );
  });

  const list = async (sub: string, query = '') =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/mentions${query}`, headers: await t.auth(sub) })).json();

  it("pages the caller's mentions newest first, ten at a time, with NEW for three days", async () => {
    const first = await list('taro');
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({
      message: expect.stringContaining('look 11'),
      authorName: 'Mia Member',
      isNew: true,
    });
    expect(first.data[0].imageId).not.toBeNull();
    expect(first.data.map((mention: { isNew: boolean }) => mention.isNew)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(first.next).toEqual(expect.any(String));
    const second = await list('taro', `?next=${first.next}`);
    expect(second.data.map((mention: { message: string }) => mention.message.split(' ').at(-1))).toEqual(['1', '0']);
    expect(second.next).toBeNull();
    expect((await list('mia')).data.map((mention: { message: string }) => mention.message)).toEqual(['for Mia']);
  });
});
