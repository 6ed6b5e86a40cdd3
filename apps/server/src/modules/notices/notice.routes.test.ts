import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

/** OWASP XSS filter-evasion cheat sheet entries, each as a notice body. */
const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<IMG SRC=javascript:alert(&quot;XSS&quot;)>',
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href=" &#14;  javascript:alert(\'XSS\');">x</a>',
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  "<svg/onload=alert('XSS')>",
  '<BGSOUND SRC="javascript:alert(\'XSS\');">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
  '<p style="background-image:url(javascript:alert(1))">styled</p>',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">x</DIV>',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv">',
  '<form action="javascript:alert(1)"><input type="submit"></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

describe('notices', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;

  beforeAll(async () => {
    make = factories(t.database.db);
    const group = await make.organization();
    const roles = [
      ['reader', 'read_only'],
      ['mia', 'member'],
      ['ada', 'administrator'],
    ] as const;
    for (const [subject, role] of roles) await make.join(await make.account({ subject }), group, role);
    await make.ownContract(await make.account({ subject: 'owner' }), await make.contract());
    await make.join(await make.account({ subject: 'staff' }), await make.organization({ isProvider: true }), 'member');
    await make.account({ subject: 'root', isSuperUser: true });
  });

  const call = async (sub: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: await t.auth(sub, { superUser: sub === 'root' }),
      ...(payload ? { payload } : {}),
    });

  const minutesFromNow = (minutes: number) =>
    new Date(Date.now() + minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

  async function post(values: Record<string, unknown> = {}) {
    const response = await call('root', 'POST', '/notices/posts', {
      title: 'Scanner maintenance',
      overview: 'The scanner is down on Friday.',
      body: '<p>The <strong>scanner</strong> is down.</p>',
      openAt: minutesFromNow(-60),
      closeAt: null,
      permission: 'read_only',
      isDraft: false,
      ...values,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; body: string }>();
  }

  const visibleTo = async (sub: string) =>
    ((await call(sub, 'GET', '/notices?limit=100')).json().data as { id: string }[]).map((notice) => notice.id);

  it('lets only super users post, read posts, edit, delete and upload pictures', async () => {
    const notice = await post();
    for (const sub of ['reader', 'mia', 'ada', 'owner', 'staff']) {
      expect((await call(sub, 'GET', '/notices/posts')).statusCode, sub).toBe(403);
      expect((await call(sub, 'GET', `/notices/posts/${notice.id}`)).statusCode, sub).toBe(403);
      expect((await call(sub, 'POST', '/notices/posts', { title: 'x' })).statusCode, sub).not.toBe(201);
      expect((await call(sub, 'DELETE', `/notices/posts/${notice.id}`)).statusCode, sub).toBe(403);
    }
    expect((await call('root', 'GET', '/notices/posts')).statusCode).toBe(200);
    expect((await call('root', 'DELETE', `/notices/posts/${notice.id}`)).statusCode).toBe(204);
    expect((await call('root', 'GET', `/notices/posts/${notice.id}`)).statusCode).toBe(404);
  });

  it("reaches a reader only when the reader's highest role meets its range", async () => {
    const byRange = {
      read_only: (await post({ permission: 'read_only' })).id,
      member: (await post({ permission: 'member' })).id,
      administrator: (await post({ permission: 'administrator' })).id,
      proprietor: (await post({ permission: 'proprietor' })).id,
    };
    const ids = Object.values(byRange);
    const seen = async (sub: string) => (await visibleTo(sub)).filter((id) => ids.includes(id)).sort();
    expect(await seen('reader')).toEqual([byRange.read_only]);
    expect(await seen('mia')).toEqual([byRange.read_only, byRange.member].sort());
    expect(await seen('ada')).toEqual([byRange.read_only, byRange.member, byRange.administrator].sort());
    expect(await seen('owner')).toEqual([...ids].sort());
    expect((await call('reader', 'GET', `/notices/${byRange.member}`)).statusCode).toBe(404);
  });

  it('shows a notice only between its post and closing times, and a draft to no reader', async () => {
    const opened = (await post({ openAt: minutesFromNow(-1) })).id;
    const future = (await post({ openAt: minutesFromNow(5) })).id;
    const closing = (await post({ openAt: minutesFromNow(-60), closeAt: minutesFromNow(5) })).id;
    const closed = (await post({ openAt: minutesFromNow(-60), closeAt: minutesFromNow(-1) })).id;
    const draft = (await post({ isDraft: true })).id;
    const seen = await visibleTo('mia');
    expect(seen).toContain(opened);
    expect(seen).toContain(closing);
    for (const id of [future, closed, draft]) expect(seen).not.toContain(id);
    for (const sub of ['reader', 'ada', 'owner']) expect(await visibleTo(sub)).not.toContain(draft);
    const posts = (await call('root', 'GET', '/notices/posts?limit=100')).json().data as {
      id: string;
      isDraft: boolean;
    }[];
    expect(posts.find((notice) => notice.id === draft)?.isDraft).toBe(true);
    const closeBeforeOpen = await call('root', 'POST', '/notices/posts', {
      title: 'x',
      overview: 'y',
      body: '<p>z</p>',
      openAt: minutesFromNow(0),
      closeAt: minutesFromNow(-5),
      permission: 'member',
      isDraft: false,
    });
    expect(closeBeforeOpen.statusCode).toBe(422);
  });

  it('gives super users the same reader side as everyone: drafts, closed and future notices only on the poster screens', async () => {
    const unreadBefore = (await call('root', 'GET', '/notices/badges')).json().unreadNoticeCount as number;
    const open = (await post({ permission: 'proprietor' })).id;
    const draft = (await post({ isDraft: true })).id;
    const future = (await post({ openAt: minutesFromNow(5) })).id;
    const closed = (await post({ openAt: minutesFromNow(-60), closeAt: minutesFromNow(-1) })).id;
    const hidden = [draft, future, closed];

    const read = await visibleTo('root');
    expect(read).toContain(open);
    for (const id of hidden) {
      expect(read).not.toContain(id);
      expect((await call('root', 'GET', `/notices/${id}`)).statusCode).toBe(404);
      expect((await call('root', 'POST', `/notices/read/${id}`)).statusCode).toBe(404);
      expect((await call('root', 'GET', `/notices/posts/${id}`)).statusCode).toBe(200);
    }
    const { rows } = await t.database.pool.query(
      'SELECT count(*)::int AS marks FROM notice_reads WHERE notice_id = ANY($1)',
      [hidden],
    );
    expect(rows[0].marks).toBe(0);
    expect((await call('root', 'GET', '/notices/badges')).json().unreadNoticeCount).toBe(unreadBefore + 1);
    const posts = (await call('root', 'GET', '/notices/posts?limit=100')).json().data as { id: string }[];
    expect(posts.map((notice) => notice.id)).toEqual(expect.arrayContaining([open, ...hidden]));
  });

  it('marks a notice read, filters by read state and counts the unread in the badge', async () => {
    const notice = (await post({ permission: 'member' })).id;
    const before = (await call('mia', 'GET', '/notices/badges')).json();
    const unread = (await call('mia', 'GET', '/notices?read=UNREAD&limit=100')).json().data as { id: string }[];
    expect(unread.map((entry) => entry.id)).toContain(notice);
    const read = await call('mia', 'POST', `/notices/read/${notice}`);
    expect(read.json()).toMatchObject({ id: notice, isAlreadyRead: true, isNew: true });
    const after = (await call('mia', 'GET', '/notices/badges')).json();
    expect(after.unreadNoticeCount).toBe(before.unreadNoticeCount - 1);
    const readList = (await call('mia', 'GET', '/notices?read=READ&limit=100')).json().data as { id: string }[];
    expect(readList.map((entry) => entry.id)).toEqual([notice]);
    expect((await call('reader', 'POST', `/notices/read/${notice}`)).statusCode).toBe(404);
  });

  it('sanitises the OWASP filter-evasion payloads on write, keeping ordinary formatting', async () => {
    for (const payload of XSS_PAYLOADS) {
      const response = await call('root', 'POST', '/notices/posts', {
        title: 'XSS',
        overview: 'payload',
        body: `<p><strong>Safe</strong> <a href="https://example.org">link</a></p>${payload}`,
        openAt: minutesFromNow(-1),
        permission: 'read_only',
        isDraft: false,
      });
      expect(response.statusCode, payload).toBe(201);
      const stored = (await call('reader', 'GET', `/notices/${response.json().id}`)).json().body as string;
      expect(stored, payload).not.toMatch(/<script|<iframe|<object|<embed|<svg|<style|<meta|<link|<form|<math/i);
      expect(stored, payload).not.toMatch(/\son\w+\s*=|javascript:|data:|style=|expression\(/i);
      expect(stored, payload).toContain('<strong>Safe</strong>');
      expect(stored, payload).toContain('href="https://example.org"');
    }
    const blank = await call('root', 'POST', '/notices/posts', {
      title: 'Empty',
      overview: 'o',
      body: '<p><script>x</script></p>',
      openAt: minutesFromNow(-1),
      permission: 'read_only',
      isDraft: false,
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual({ body: 'Letter body is required' });
  });

  it('stores pictures for super users and serves them to signed-in readers; only our pictures stay in a body', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#7048e8' } })
      .png()
      .toBuffer();
    const upload = async (sub: string, body: Buffer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/notices/media',
        headers: { ...(await t.auth(sub, { superUser: sub === 'root' })), 'content-type': 'image/png' },
        payload: body,
      });
    expect((await upload('mia', png)).statusCode).toBe(403);
    expect((await upload('root', Buffer.from('<svg onload=alert(1)>'))).statusCode).toBe(422);
    const stored = await upload('root', png);
    expect(stored.statusCode).toBe(201);
    const { url } = stored.json<{ url: string }>();
    const served = await t.app.inject({ method: 'GET', url, headers: await t.auth('reader') });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(png);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const notice = await post({
      body: `<p>Look:</p><img src="${url}" alt="scanner"><img src="https://evil.example/x.png">`,
    });
    expect(notice.body).toContain(`<img src="${url}" alt="scanner" />`);
    expect(notice.body).not.toContain('evil.example');
  });
});
