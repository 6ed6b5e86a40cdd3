import { describe, expect, it } from 'vitest';
import { findMentions, mentionHandles, type MentionCandidate } from './mentions.ts';

const person = (accountId: string, values: Partial<MentionCandidate> = {}): MentionCandidate => ({
  accountId,
  displayName: null,
  firstName: '',
  lastName: '',
  email: `${accountId}@example.test`,
  ...values,
});

const taro = person('taro', {
  displayName: 'Dr. Yamada',
  firstName: 'Taro',
  lastName: 'Yamada',
  email: 'tyamada@lab.jp',
});
const tom = person('tom', { firstName: 'Tom', lastName: 'Hill', email: 'tom@lab.jp' });
const tomas = person('tomas', { firstName: 'Tomas', lastName: 'Berg', email: 'tomas@lab.jp' });
const hanako = person('hanako', {
  displayName: '佐藤 花子',
  firstName: '花子',
  lastName: '佐藤',
  email: 'h.sato@lab.jp',
});
const members = [taro, tom, tomas, hanako];

describe('mentionHandles', () => {
  it('gives the display name, "firstName lastName" and the e-mail local part, normalized', () => {
    expect(mentionHandles(taro)).toEqual(['dr. yamada', 'taro yamada', 'tyamada']);
  });

  it('drops empty handles and duplicates', () => {
    expect(mentionHandles(person('x', { email: 'x@lab.jp', displayName: 'X' }))).toEqual(['x']);
  });
});

describe('findMentions', () => {
  it.each([
    ['display name', '@Dr. Yamada please check', ['taro']],
    ['first and last name', 'please look, @Taro Yamada', ['taro']],
    ['e-mail local part', '@tyamada: grade?', ['taro']],
    ['any letter case', '@TAROYAMADA is not a handle, @TYAMADA is', ['taro']],
    ['blanks of any kind and length', '@Taro \u3000 Yamada', ['taro']],
    ['a full-width at sign from a Japanese IME', '＠tyamada 確認お願いします', ['taro']],
    ['a Japanese display name followed by an honorific', '@佐藤 花子さん、ご確認ください', ['hanako']],
    ['a Japanese mention right after Japanese text', '確認は@佐藤 花子さんへ', ['hanako']],
    ['a mention in brackets', '(cc @tom)', ['tom']],
    ['a mention ending a sentence', 'Thanks @tom.', ['tom']],
  ])('finds a member by %s', (_, text, expected) => {
    expect(findMentions(text, members)).toEqual(expected);
  });

  it('prefers the longest handle: "@tomas" names Tomas, not Tom', () => {
    expect(findMentions('@tomas', members)).toEqual(['tomas']);
  });

  it('needs a boundary after an ASCII handle', () => {
    expect(findMentions('@tomorrow we cut', members)).toEqual([]);
    expect(findMentions('@tom.hill', [tom])).toEqual([]);
    expect(findMentions('@tom_x', [tom])).toEqual([]);
  });

  it('ignores an @ inside an e-mail address', () => {
    expect(findMentions('write to support@tom.example', members)).toEqual([]);
    expect(findMentions('tyamada@lab.jp', members)).toEqual([]);
  });

  it('names each member once, in the order first named', () => {
    expect(findMentions('@tom @Taro Yamada @tom @tyamada', members)).toEqual(['tom', 'taro']);
  });

  it('names everyone who shares the longest handle', () => {
    const twins = [person('a', { displayName: 'Kenji' }), person('b', { displayName: 'Kenji' })];
    expect(findMentions('@kenji', twins)).toEqual(['a', 'b']);
  });

  it('finds nothing without an @ or with an unknown name', () => {
    expect(findMentions('Taro Yamada should look', members)).toEqual([]);
    expect(findMentions('@nobody here', members)).toEqual([]);
    expect(findMentions('@', members)).toEqual([]);
  });
});
