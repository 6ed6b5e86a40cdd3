import { createCounterStore, useCounter } from '../../lib/counter-store.ts';

/** Rows of the CSV file loaded into the import screen (its menu badge); the import flow sets it, Reset clears it. */
export const csvRows = createCounterStore();

export function useCsvRowCount(): number {
  return useCounter(csvRows);
}
