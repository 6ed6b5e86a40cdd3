import { Icon, type IconProps } from '../../components/icons/Icon.tsx';

/** Move to another case. */
export function IconArrowsExchange(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M7 10h14l-4-4" />
      <path d="M17 14H3l4 4" />
    </Icon>
  );
}
