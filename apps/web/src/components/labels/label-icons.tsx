import { parseLabelName, PRIVATE_LABEL_ICON, type PublicLabelIcon } from '@pathology/contract';
import type { ReactNode } from 'react';
import { Icon, type IconProps } from '../icons/Icon.tsx';

/** Tabler-style drawings of the label icons (part 1 §3): the private star and the six public icons. */
const DRAWINGS: Record<PublicLabelIcon | typeof PRIVATE_LABEL_ICON, ReactNode> = {
  Star: (
    <path d="M12 17.75l-6.172 3.245l1.179 -6.873l-5 -4.867l6.9 -1l3.086 -6.253l3.086 6.253l6.9 1l-5 4.867l1.179 6.873z" />
  ),
  Microscope: (
    <>
      <path d="M5 21h14" />
      <path d="M6 18h2" />
      <path d="M7 18v3" />
      <path d="M9 11l3 3l6 -6l-3 -3z" />
      <path d="M10.5 12.5l-1.5 1.5" />
      <path d="M17 3l3 3" />
      <path d="M12 21a6 6 0 0 0 3.715 -10.712" />
    </>
  ),
  Stethoscope: (
    <>
      <path d="M6 4h-1a2 2 0 0 0 -2 2v3.5a5.5 5.5 0 0 0 11 0v-3.5a2 2 0 0 0 -2 -2h-1" />
      <path d="M8 15a6 6 0 1 0 12 0v-3" />
      <path d="M11 3v2" />
      <path d="M6 3v2" />
      <circle cx="20" cy="10" r="2" />
    </>
  ),
  Alert: (
    <>
      <path d="M12 9v4" />
      <path d="M10.363 3.591l-8.106 13.534a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636 -2.87l-8.106 -13.536a1.914 1.914 0 0 0 -3.274 0z" />
      <path d="M12 16h.01" />
    </>
  ),
  CheckCircle: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9 12l2 2l4 -4" />
    </>
  ),
  CheckDottedCircle: (
    <>
      <path d="M8.56 3.69a9 9 0 0 0 -2.92 1.95" />
      <path d="M3.69 8.56a9 9 0 0 0 -.69 3.44" />
      <path d="M3.69 15.44a9 9 0 0 0 1.95 2.92" />
      <path d="M8.56 20.31a9 9 0 0 0 3.44 .69" />
      <path d="M15.44 20.31a9 9 0 0 0 2.92 -1.95" />
      <path d="M20.31 15.44a9 9 0 0 0 .69 -3.44" />
      <path d="M20.31 8.56a9 9 0 0 0 -1.95 -2.92" />
      <path d="M15.44 3.69a9 9 0 0 0 -3.44 -.69" />
      <path d="M9 12l2 2l4 -4" />
    </>
  ),
  Badge: <path d="M17 17v-13l-5 3l-5 -3v13l5 3z" />,
};

function isDrawn(icon: string): icon is keyof typeof DRAWINGS {
  return Object.hasOwn(DRAWINGS, icon);
}

export type LabelGlyphProps = IconProps & { icon: string; filled?: boolean };

/** One label icon by its icon name ("Star", "Microscope"...); unknown names draw a plain circle. */
export function LabelGlyph({ icon, filled = false, ...props }: LabelGlyphProps) {
  return (
    <Icon fill={filled ? 'currentColor' : 'none'} {...props}>
      {isDrawn(icon) ? DRAWINGS[icon] : <circle cx="12" cy="12" r="8" />}
    </Icon>
  );
}

/** A label ("IconName-#color") drawn in its own colour; the star is filled, like a set star everywhere. */
export function LabelIcon({ labelName, size = 16, title }: { labelName: string; size?: number; title?: string }) {
  const parsed = parseLabelName(labelName);
  if (!parsed) return null;
  const glyph = (
    <LabelGlyph
      icon={parsed.icon}
      size={size}
      color={parsed.color}
      filled={parsed.icon === PRIVATE_LABEL_ICON}
      strokeWidth={2.2}
    />
  );
  return title ? (
    <span role="img" aria-label={title} title={title} style={{ display: 'inline-flex' }}>
      {glyph}
    </span>
  ) : (
    glyph
  );
}
