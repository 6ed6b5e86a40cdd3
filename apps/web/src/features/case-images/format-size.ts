const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A byte count for people: '512 B', '1.5 KB', '12.3 MB', '2 GB' (binary units, one decimal at most, GB the largest).
 * Negative or non-finite input shows as '0 B'.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // 1023.96 KB rounds to '1024 KB'; move up a unit instead.
  const rounded = Math.round(value * 10) / 10;
  if (rounded >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${UNITS[unit]}`;
}
