import { parseLabelName, PRIVATE_LABEL_ICON, type PublicLabelIcon } from '@pathology/contract';
import {
  IconAlertTriangle,
  IconBadge,
  IconCircle,
  IconCircleCheck,
  IconCircleDashedCheck,
  IconMicroscope,
  IconStar,
  IconStarFilled,
  IconStethoscope,
  type Icon,
  type IconProps,
} from '@tabler/icons-react';

/** The Tabler icon of each label icon name (part 1 §3): the private star and the six public icons. */
const GLYPHS: Record<PublicLabelIcon | typeof PRIVATE_LABEL_ICON, Icon> = {
  Star: IconStar,
  Microscope: IconMicroscope,
  Stethoscope: IconStethoscope,
  Alert: IconAlertTriangle,
  CheckCircle: IconCircleCheck,
  CheckDottedCircle: IconCircleDashedCheck,
  Badge: IconBadge,
};

function isDrawn(icon: string): icon is keyof typeof GLYPHS {
  return Object.hasOwn(GLYPHS, icon);
}

export type LabelGlyphProps = IconProps & { icon: string; filled?: boolean };

/** One label icon by its icon name ("Star", "Microscope"...); unknown names draw a plain circle. */
export function LabelGlyph({ icon, filled = false, ...props }: LabelGlyphProps) {
  const Glyph = filled && icon === 'Star' ? IconStarFilled : isDrawn(icon) ? GLYPHS[icon] : IconCircle;
  return <Glyph size={20} aria-hidden {...props} />;
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
      stroke={2.2}
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
