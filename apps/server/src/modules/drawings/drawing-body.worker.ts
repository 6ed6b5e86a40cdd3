import { parentPort } from 'node:worker_threads';
import { readDrawingBody, type DrawingBodyTask } from './drawing-body.ts';

/** A worker thread of the drawing body readers (drawing-bodies.ts): reads each body it is sent. */
parentPort!.on('message', (task: DrawingBodyTask) => parentPort!.postMessage(readDrawingBody(task)));
