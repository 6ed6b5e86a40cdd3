import { describe, expect, it } from 'vitest';
import { mailTextParts } from './mail-links.ts';

const origin = 'https://slides.example';

describe('mailTextParts', () => {
  it("makes the app's own addresses links and keeps the text around them", () => {
    const text = 'Hello,\nopen https://slides.example/invitations/abc_1-Z to join.\nBye';
    expect(mailTextParts(text, origin)).toEqual([
      { text: 'Hello,\nopen ' },
      { text: 'https://slides.example/invitations/abc_1-Z', href: 'https://slides.example/invitations/abc_1-Z' },
      { text: ' to join.\nBye' },
    ]);
  });

  it('leaves a sentence-ending full stop out of the link', () => {
    expect(mailTextParts('Go to https://slides.example/invitations/x.', origin)).toEqual([
      { text: 'Go to ' },
      { text: 'https://slides.example/invitations/x', href: 'https://slides.example/invitations/x' },
      { text: '.' },
    ]);
  });

  it('keeps other sites, other schemes and look-alike hosts as plain text', () => {
    for (const text of [
      'https://evil.example/invitations/x',
      'https://slides.example.evil.example/x',
      'http://slides.example/x',
      'javascript:alert(1)',
      'https://slides.example@evil.example/x',
    ]) {
      expect(mailTextParts(text, origin)).toEqual([{ text }]);
    }
  });
});
