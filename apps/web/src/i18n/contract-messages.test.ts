import * as contract from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { contractMessageText } from './contract-messages.ts';
import i18n from './index.ts';

interface SchemaNode {
  _zod: { def: Record<string, unknown> };
}

const isSchema = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The message an `error` option gives, asked as zod asks it for a missing value. */
function messageOf(error: unknown): string | undefined {
  if (typeof error !== 'function') return undefined;
  const message: unknown = error({ input: undefined, code: 'invalid_type' });
  if (typeof message === 'string') return message;
  return typeof message === 'object' && message !== null && 'message' in message ? String(message.message) : undefined;
}

/** Every message set on a schema, its checks and refinements, and every schema inside it (shapes, unions, pipes…). */
function collectMessages(node: unknown, found: Set<string>, seen: Set<unknown>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (isSchema(node)) {
    const def = node._zod.def;
    const own = messageOf(def.error);
    if (own !== undefined) found.add(own);
    for (const check of (def.checks ?? []) as SchemaNode[]) {
      const message = messageOf(check._zod.def.error);
      if (message !== undefined) found.add(message);
    }
    for (const value of Object.values(def)) collectMessages(value, found, seen);
    return;
  }
  for (const value of Array.isArray(node) ? node : Object.values(node)) collectMessages(value, found, seen);
}

/** The messages the contract's schemas carry (a field's problem in a 422 or the form's own check). */
function schemaMessages(): string[] {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  for (const value of Object.values(contract)) if (isSchema(value)) collectMessages(value, found, seen);
  return [...found].sort();
}

const ja = i18n.getFixedT('ja');
const en = i18n.getFixedT('en');

describe("the contract's validation messages", () => {
  const messages = [...new Set([...schemaMessages(), ...contract.UNWALKED_VALIDATION_MESSAGES])];

  it('are found by walking the schemas, the notice form and the refinements', () => {
    expect(messages).toContain(contract.NOTICE_MESSAGES.titleRequired);
    expect(messages).toContain(contract.NOTICE_MESSAGES.hourRequired);
    expect(messages).toContain(contract.COLOR_MESSAGES.presetNameRequired);
    expect(messages).toContain(contract.MESSAGES.fieldRequired);
    expect(messages.length).toBeGreaterThan(20);
  });

  it.each(messages)('"%s" has a Japanese and an English text', (message) => {
    const japanese = contractMessageText(message, ja);
    const english = contractMessageText(message, en);
    expect(japanese, 'no translation key').toBeDefined();
    expect(english, 'no translation key').toBeDefined();
    expect(japanese).not.toMatch(/^[\x20-\x7e]*$/);
    expect(english).toMatch(/^[\x20-\x7e]*$/);
  });

  it("keeps the spec's English wording", () => {
    for (const message of messages.filter((text) => !text.includes('${'))) {
      expect(contractMessageText(message, en)).toBe(message);
    }
  });

  it('fills in the numbers of a message with a limit', () => {
    expect(contractMessageText('Must be at least -100', ja)).toBe('-100 以上にしてください');
    expect(contractMessageText('Name must be at most 100 characters', en)).toBe('Name must be at most 100 characters');
  });
});
