import { createRequire } from 'node:module';

/**
 * Packages that only some jobs and requests need, loaded when first used rather than at every start: ONNX Runtime
 * (a worker running a prediction), the HTML sanitiser (writing a notice) and the SMTP client (an installation with
 * SMTP_URL) are tens of MiB of every process's memory at rest and part of its start; the DICOM parser (reading an
 * upload), the zip writer (a download of drawings or a DICOM export) and the zip reader (a VSI or DICOM zip upload)
 * are smaller parts of it. All ship CommonJS, so `require` loads them where they are first needed. Skia's canvas, for
 * detection tiles, is loaded by their worker threads only.
 */
const require = createRequire(import.meta.url);

type OnnxRuntime = typeof import('onnxruntime-node');
type SanitizeHtml = typeof import('sanitize-html');
type Nodemailer = typeof import('nodemailer');
type DicomParser = typeof import('dicom-parser');
type Yazl = typeof import('yazl');
type Yauzl = typeof import('yauzl');
type OnnxProto = typeof import('onnx-proto');

let onnxRuntimeModule: OnnxRuntime | undefined;
let sanitizeHtmlModule: SanitizeHtml | undefined;
let nodemailerModule: Nodemailer | undefined;
let dicomParserModule: DicomParser | undefined;
let yazlModule: Yazl | undefined;
let yauzlModule: Yauzl | undefined;
let onnxProtoModule: OnnxProto | undefined;

export function onnxRuntime(): OnnxRuntime {
  return (onnxRuntimeModule ??= require('onnxruntime-node') as OnnxRuntime);
}

export function sanitizeHtml(): SanitizeHtml {
  return (sanitizeHtmlModule ??= require('sanitize-html') as SanitizeHtml);
}

export function nodemailer(): Nodemailer {
  return (nodemailerModule ??= require('nodemailer') as Nodemailer);
}

/** A UMD bundle: Node's ESM loader would see none of its named exports, so it is required in any case. */
export function dicomParser(): DicomParser {
  return (dicomParserModule ??= require('dicom-parser') as DicomParser);
}

export function yazl(): Yazl {
  return (yazlModule ??= require('yazl') as Yazl);
}

export function yauzl(): Yauzl {
  return (yauzlModule ??= require('yauzl') as Yauzl);
}

/** protobufjs and ONNX's message types, to encode the built-in models when they are missing or changed. */
export function onnxProto(): OnnxProto {
  return (onnxProtoModule ??= require('onnx-proto') as OnnxProto);
}
