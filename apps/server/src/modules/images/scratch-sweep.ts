import fs from 'node:fs/promises';
import path from 'node:path';

/** Scratch entries the image pipeline writes: conversion folders and VSI zips under validation. */
const SCRATCH_ENTRY = /^(convert-.+|[0-9a-f-]{36}\.zip)$/;

/**
 * Removes scratch left by processes that were killed (a conversion's work folder, a zip being
 * checked). Only entries older than `maxAgeMs` go, so a live conversion of another worker sharing
 * the folder is never touched.
 */
export async function sweepStaleScratch(scratchDir: string, maxAgeMs: number, now = Date.now()): Promise<string[]> {
  const entries = await fs.readdir(scratchDir).catch(() => []);
  const removed: string[] = [];
  for (const name of entries) {
    if (!SCRATCH_ENTRY.test(name)) continue;
    const full = path.join(scratchDir, name);
    const stats = await fs.stat(full).catch(() => null);
    if (stats == null || now - stats.mtimeMs < maxAgeMs) continue;
    await fs.rm(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
