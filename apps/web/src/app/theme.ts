import { createTheme } from '@mantine/core';

// System UI fonts first, then Japanese faces per platform, so kana and kanji never fall back to a mismatched serif.
const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Hiragino Sans"',
  '"Hiragino Kaku Gothic ProN"',
  '"Noto Sans JP"',
  '"Noto Sans CJK JP"',
  '"Yu Gothic UI"',
  'Meiryo',
  'sans-serif',
].join(', ');

const px = (value: number) => `${value / 16}em`;

/** Part 3 §9 (sm 320, md 768, lg 1024, xl 1280, xl2 1400, xl3 1600 px); Mantine reads breakpoints in em. */
export const BREAKPOINTS = {
  sm: px(320),
  md: px(768),
  lg: px(1024),
  xl: px(1280),
  xl2: px(1400),
  xl3: px(1600),
};

export const theme = createTheme({
  breakpoints: BREAKPOINTS,
  primaryColor: 'violet',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '650' },
  cursorType: 'pointer',
});
