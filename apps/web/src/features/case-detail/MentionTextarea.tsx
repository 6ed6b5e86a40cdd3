import { Paper, Text, Textarea, UnstyledButton, type TextareaProps } from '@mantine/core';
import { MENTION_SUGGEST_FROM, MentionSuggestionListSchema, type MentionSuggestion } from '@pathology/contract';
import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../../api/client.ts';

/** "@" (not inside an e-mail address) and what follows it up to the caret, when long enough to suggest. */
function typedMention(text: string, caret: number): string | null {
  const match = /(?:^|[^A-Za-z0-9._%+-])[@＠]([^\s@＠]*)$/u.exec(text.slice(0, caret));
  const typed = match?.[1] ?? '';
  return typed.length >= MENTION_SUGGEST_FROM ? typed : null;
}

interface MentionTextareaProps extends Omit<TextareaProps, 'value' | 'onChange'> {
  caseId: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * A text box that suggests members of the case's group after "@" and two letters (part 3 §2): arrow
 * keys move, Enter or Tab picks, Escape closes; a pick writes the member's name after the "@".
 */
export function MentionTextarea({ caseId, value, onChange, ...props }: MentionTextareaProps) {
  const input = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  // Where the caret goes once a picked name is in the box: set as the new text is committed, before
  // the next keystroke, so fast typing after a pick lands after the name.
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (pendingCaret.current === null) return;
    input.current?.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [value]);
  const typed = typedMention(value, caret);
  const suggestions = useQuery({
    queryKey: ['mention-suggestions', caseId, typed],
    queryFn: ({ signal }) =>
      api.get(`/cases/${encodeURIComponent(caseId)}/mention-candidates`, {
        signal,
        query: { q: typed },
        schema: MentionSuggestionListSchema,
      }),
    enabled: typed !== null,
    staleTime: 30_000,
  });
  const options = typed !== null && typed !== dismissed ? (suggestions.data?.data ?? []) : [];

  const pick = (suggestion: MentionSuggestion) => {
    const start = caret - (typed?.length ?? 0);
    const next = `${value.slice(0, start)}${suggestion.handle} ${value.slice(caret)}`;
    const position = start + suggestion.handle.length + 1;
    pendingCaret.current = position;
    onChange(next);
    setCaret(position);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (options.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => (current + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(options[Math.min(active, options.length - 1)]!);
    } else if (event.key === 'Escape') {
      setDismissed(typed);
    }
  };

  return (
    <div style={{ position: 'relative' }}>
      <Textarea
        {...props}
        ref={input}
        value={value}
        onChange={(event) => {
          onChange(event.currentTarget.value);
          setCaret(event.currentTarget.selectionStart);
          setActive(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
      />
      {options.length > 0 && (
        <Paper
          shadow="md"
          withBorder
          radius="md"
          p={4}
          pos="absolute"
          left={0}
          right={0}
          style={{ zIndex: 10 }}
          role="listbox"
          data-testid="mention-suggestions"
        >
          {options.map((suggestion, index) => (
            <UnstyledButton
              key={suggestion.accountId}
              role="option"
              aria-selected={index === active}
              display="block"
              w="100%"
              px="sm"
              py={6}
              bg={index === active ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
              onMouseDown={(event) => {
                // Keep the focus in the text box.
                event.preventDefault();
                pick(suggestion);
              }}
            >
              <Text size="sm">@{suggestion.name}</Text>
            </UnstyledButton>
          ))}
        </Paper>
      )}
    </div>
  );
}
