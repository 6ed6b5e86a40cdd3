import { createRequire } from 'node:module';

/**
 * Packages that only some jobs and requests need, loaded when first used rather than at every start: ONNX Runtime
 * (a worker running a prediction), the HTML sanitiser (writing a notice) and the SMTP client (an installation with
 * SMTP_URL) are tens of MiB of every process's memory at rest and part of its start. All ship CommonJS, so `require`
 * loads them where they are first needed. Skia's canvas, for detection tiles, is loaded by their worker threads only.
 */
const require = createRequire(import.meta.url);

type OnnxRuntime = typeof import('onnxruntime-node');
type SanitizeHtml = typeof import('sanitize-html');
type Nodemailer = typeof import('nodemailer');

let onnxRuntimeModule: OnnxRuntime | undefined;
let sanitizeHtmlModule: SanitizeHtml | undefined;
let nodemailerModule: Nodemailer | undefined;

export function onnxRuntime(): OnnxRuntime {
  return (onnxRuntimeModule ??= require('onnxruntime-node') as OnnxRuntime);
}

export function sanitizeHtml(): SanitizeHtml {
  return (sanitizeHtmlModule ??= require('sanitize-html') as SanitizeHtml);
}

export function nodemailer(): Nodemailer {
  return (nodemailerModule ??= require('nodemailer') as Nodemailer);
}
