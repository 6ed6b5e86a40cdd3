import { Button, Group, Modal, Text } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Where the drawing tools of several slides on one page report unsaved work: a router takes one blocker at a time,
 * so a comparison asks once for all its panes instead of each pane asking for itself.
 */
const SharedGuard = createContext<((key: string, unsaved: boolean) => void) | null>(null);

/** Asks before leaving the page (in the app or the browser) while `unsaved`. */
export function UnsavedGuard({ unsaved }: { unsaved: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(unsaved);
  useEffect(() => {
    if (!unsaved) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);
  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('drawings.unsaved.title')}
      centered
      data-testid="drawings-unsaved-dialog"
    >
      <Text size="sm">{t('drawings.unsaved.message')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          {t('drawings.unsaved.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {t('drawings.unsaved.leave')}
        </Button>
      </Group>
    </Modal>
  );
}

/** One guard for every slide view inside: each reports its unsaved work here instead of guarding by itself. */
export function SharedUnsavedGuard({ children }: { children: ReactNode }) {
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(new Set());
  const report = useCallback(
    (key: string, value: boolean) =>
      setUnsaved((current) => {
        if (current.has(key) === value) return current;
        const next = new Set(current);
        if (value) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  return (
    <SharedGuard.Provider value={report}>
      {children}
      <UnsavedGuard unsaved={unsaved.size > 0} />
    </SharedGuard.Provider>
  );
}

/** The guard of one slide's drawings: the shared one when a comparison holds it, else its own. */
export function DrawingsGuard({ id, unsaved }: { id: string; unsaved: boolean }) {
  const shared = useContext(SharedGuard);
  useEffect(() => {
    if (!shared) return undefined;
    shared(id, unsaved);
    return () => shared(id, false);
  }, [shared, id, unsaved]);
  return shared ? null : <UnsavedGuard unsaved={unsaved} />;
}
