import { parentPort } from 'node:worker_threads';
import { parseFeatureTexts, type FeatureTexts } from './feature-parse.ts';

/** A worker thread of the import's feature readers (thread-pool.ts): parses each batch of texts it is sent. */
parentPort!.on('message', (batch: FeatureTexts) => parentPort!.postMessage(parseFeatureTexts(batch)));
