import fs from 'node:fs/promises';
import path from 'node:path';

/** Scratch entries the image pipeline writes: conversion folders and VSI zips under validation. */
const SCRATCH_ENTRY = /^(convert-.+|[0-9a-f-]{36}\.zip)$/;
/** A conversion attempt's folder: `convert-<image id>-<attempt>-<mkdtemp's suffix>`. */
const ATTEMPT_FOLDER = /^convert-([0-9a-f-]{36})-(\d+)-[^-]+$/;

/** The mkdtemp prefix of one conversion attempt's work folder, which names its image and attempt for the sweep. */
export function attemptFolderPrefix(scratchDir: string, imageId: string, attempt: number): string {
  return path.join(scratchDir, `convert-${imageId}-${attempt}-`);
}

/** A conversion attempt running on a live worker: its image and pg-boss's retry count. */
export interface RunningAttempt {
  imageId: string;
  retryCount: number;
}

export interface ScratchSweep {
  scratchDir: string;
  /** The attempts running on live workers (any process sharing the folder), asked after the folder was read. */
  running: () => Promise<RunningAttempt[]>;
  /** Entries that name no attempt (VSI zips) go once this old. */
  maxAgeMs: number;
  now?: number;
}

/**
 * Removes scratch left by processes that were killed: a conversion folder whose attempt is not
 * running on a live worker (its lease lapsed, or a later attempt took over), and other entries
 * (a zip being checked by an upload) once older than `maxAgeMs`. Returns those removed, and those
 * that could not be (still written by a tool that outlived its process), for a later sweep.
 */
export async function sweepStaleScratch({ scratchDir, running, maxAgeMs, now = Date.now() }: ScratchSweep) {
  const entries = (await fs.readdir(scratchDir).catch(() => [])).filter((name) => SCRATCH_ENTRY.test(name));
  // Read after the listing: an attempt starting meanwhile is in this answer, so its new folder stays.
  const live = new Set((await running()).map((attempt) => `${attempt.imageId}-${attempt.retryCount}`));
  const removed: string[] = [];
  const busy: string[] = [];
  for (const name of entries) {
    const full = path.join(scratchDir, name);
    const attempt = ATTEMPT_FOLDER.exec(name);
    if (attempt != null) {
      if (live.has(`${attempt[1]}-${attempt[2]}`)) continue;
    } else {
      const stats = await fs.stat(full).catch(() => null);
      if (stats == null || now - stats.mtimeMs < maxAgeMs) continue;
    }
    try {
      await fs.rm(full, { recursive: true, force: true });
      removed.push(name);
    } catch {
      busy.push(name);
    }
  }
  return { removed, busy };
}
