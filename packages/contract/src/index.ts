export * from './domain/index.ts';
export * from './api/errors.ts';
export * from './api/health.ts';
export * from './api/screen-settings.ts';
export * from './api/capabilities.ts';
