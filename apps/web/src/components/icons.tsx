// One import path for every icon of the app; the drawings live in ./icons/ by purpose.
export type { IconProps } from './icons/Icon.tsx';
export * from './icons/action-icons.tsx';
export * from './icons/navigation-icons.tsx';
export * from './icons/status-icons.tsx';
