export { DEMO_ACCOUNTS, DEMO_COLLEAGUES } from './demo-accounts.ts';
export { DEMO_EPOCH, DEMO_SEEDED_KEY, seedDemo, type SeedDemoOptions, type SeedDemoResult } from './demo.ts';
export type { DbTransaction, DemoImageAttacher, SeededCase } from './types.ts';
