import type { ReactNode, SVGProps } from 'react';

/*
 * Line icons drawn in the Tabler style (24 px grid, 2 px stroke, currentColor) so the app needs no icon package.
 * Replace with @tabler/icons-react if the set keeps growing.
 */

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number | string };

export function Icon({ size = 20, children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
