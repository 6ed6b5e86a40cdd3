/** The viewer's keyboard shortcuts (←/→, R, F, +/-, 0, S) and the keys that trigger them. */
export type ViewerShortcut = 'previous' | 'next' | 'rotate' | 'fullscreen' | 'zoomIn' | 'zoomOut' | 'home' | 'snapshot';

const KEYS: Record<string, ViewerShortcut> = {
  ArrowLeft: 'previous',
  ArrowRight: 'next',
  r: 'rotate',
  R: 'rotate',
  f: 'fullscreen',
  F: 'fullscreen',
  '+': 'zoomIn',
  '=': 'zoomIn',
  '-': 'zoomOut',
  _: 'zoomOut',
  '0': 'home',
  s: 'snapshot',
  S: 'snapshot',
};

/** Roles whose widgets use these keys themselves (sliders, lists, menus, tabs...). */
const KEY_HUNGRY_ROLES = new Set([
  'slider',
  'listbox',
  'option',
  'menu',
  'menuitem',
  'combobox',
  'radio',
  'tab',
  'spinbutton',
]);

interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
  target: EventTarget | null;
}

interface ElementLike {
  tagName?: string;
  isContentEditable?: boolean;
  getAttribute?(name: string): string | null;
  closest?(selector: string): unknown;
}

export function isTyping(target: EventTarget | null): boolean {
  const element = target as ElementLike | null;
  if (!element?.tagName) return false;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) || element.isContentEditable) return true;
  if (KEY_HUNGRY_ROLES.has(element.getAttribute?.('role') ?? '')) return true;
  // Dialogs and drawers (the colour panel) keep their keys.
  return Boolean(element.closest?.('[role="dialog"]'));
}

/** The shortcut a key press asks for, or undefined when it is not one (modifiers, typing, a widget's own keys). */
export function shortcutOf(event: KeyEventLike): ViewerShortcut | undefined {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return undefined;
  if (isTyping(event.target)) return undefined;
  return KEYS[event.key];
}
