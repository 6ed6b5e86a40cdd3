import { describe, expect, it } from 'vitest';
import { splitMentions } from './comment-body.ts';

describe('comment mentions', () => {
  it('marks @names and keeps the rest', () => {
    expect(splitMentions('Please review @d.miller, thanks')).toEqual([
      { text: 'Please review ', mention: false },
      { text: '@d.miller', mention: true },
      { text: ', thanks', mention: false },
    ]);
  });

  it('ignores e-mail addresses and handles a leading mention', () => {
    expect(splitMentions('@ito see a@b.c')).toEqual([
      { text: '@ito', mention: true },
      { text: ' see a@b.c', mention: false },
    ]);
    expect(splitMentions('')).toEqual([]);
  });
});
