import { createHash } from 'node:crypto';
import type { Language } from './i18n.ts';

export const PRODUCT_NAME = 'Pathology slides';

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Self-contained: the sign-in page must work without the web app's build and with no outside requests. */
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
:root{--accent:#7048e8;--accent-dark:#5f3dc4;--accent-soft:#f3f0ff;--text:#212529;--muted:#666e77;--line:#dee2e6;--error:#c92a2a;--error-soft:#fff5f5}
html,body{margin:0;min-height:100%}
body{font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans JP","Yu Gothic UI",Meiryo,sans-serif;font-size:15px;line-height:1.55;color:var(--text);background:linear-gradient(160deg,#f3f0ff 0%,#f8f9fa 45%,#eef1f4 100%);min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:48px 16px}
main{width:100%;max-width:420px}
main.wide{max-width:760px}
.brand{display:flex;align-items:center;justify-content:center;gap:10px;margin-bottom:20px;font-weight:700;font-size:19px;letter-spacing:.01em}
.brand svg{flex:none}
.card{max-width:420px;margin:0 auto;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(33,37,41,.08),0 12px 32px rgba(112,72,232,.10);padding:32px 32px 28px}
.card-head{display:flex;align-items:baseline;justify-content:space-between;gap:12px;margin-bottom:4px}
h1{font-size:22px;margin:0;font-weight:700}
.lang{font-size:13px;color:var(--accent);text-decoration:none;white-space:nowrap}
.lang:hover{text-decoration:underline}
p{margin:0 0 16px}
.lead{color:var(--muted);font-size:14px;margin-bottom:22px}
label{display:block;font-weight:600;font-size:14px;margin:0 0 6px}
input[type=email],input[type=password]{display:block;width:100%;font:inherit;padding:10px 12px;border:1px solid var(--line);border-radius:8px;margin-bottom:18px;background:#fff;color:inherit}
input:focus{outline:none;border-color:var(--accent);box-shadow:0 0 0 3px rgba(112,72,232,.18)}
.button{display:block;width:100%;font:inherit;font-weight:600;text-align:center;text-decoration:none;padding:11px 16px;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
.button:hover{background:var(--accent-dark);border-color:var(--accent-dark)}
.button:focus-visible,.link:focus-visible,.fill:focus-visible{outline:3px solid rgba(112,72,232,.35);outline-offset:2px}
.button.secondary{background:#fff;color:var(--accent)}
.button.secondary:hover{background:var(--accent-soft)}
.stack{display:grid;gap:10px}
.link{display:block;text-align:center;margin-top:14px;color:var(--muted);font-size:14px;text-decoration:none}
.link:hover{color:var(--accent);text-decoration:underline}
.notice{background:#e6fcf5;color:#087f5b;border:1px solid #96f2d7;border-radius:8px;padding:10px 12px;font-size:14px;margin-bottom:18px}
.alert{background:var(--error-soft);color:var(--error);border:1px solid #ffc9c9;border-radius:8px;padding:10px 12px;font-size:14px;margin-bottom:18px}
.demo{margin-top:28px;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(33,37,41,.08);padding:20px 22px}
.demo h2{font-size:15px;margin:0 0 2px}
.demo p{color:var(--muted);font-size:13px;margin-bottom:12px}
table{width:100%;border-collapse:collapse;font-size:13px}
th{white-space:nowrap;text-align:left;font-weight:600;color:var(--muted);border-bottom:1px solid var(--line);padding:6px 8px}
td{border-bottom:1px solid #f1f3f5;padding:8px;vertical-align:top}
td code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;white-space:nowrap}
.table{overflow-x:auto}
td:nth-child(3){min-width:220px}
.fill{white-space:nowrap;font:inherit;font-size:12px;font-weight:600;padding:4px 10px;border-radius:6px;border:1px solid var(--accent);background:#fff;color:var(--accent);cursor:pointer}
.fill:hover{background:var(--accent-soft)}
footer{margin-top:24px;color:var(--muted);font-size:12px;text-align:center}
@media (max-width:480px){.card{padding:24px 20px}body{padding:24px 12px}}
`;

const LOGO = `<svg width="30" height="30" viewBox="0 0 30 30" aria-hidden="true"><rect width="30" height="30" rx="8" fill="#7048e8"/><rect x="5" y="10" width="20" height="10" rx="2" fill="#fff"/><circle cx="18" cy="15" r="3.2" fill="#b197fc"/><rect x="7.5" y="12.5" width="5" height="5" rx="1" fill="#d0bfff"/></svg>`;

function hash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

const STYLE_HASH = hash(STYLE);

export interface Page {
  language: Language;
  title: string;
  /** Trusted HTML: every value inside must already be escaped. */
  body: string;
  /** Static inline scripts, allowed by their hash in the page's Content-Security-Policy. */
  scripts?: readonly string[];
  wide?: boolean;
}

export interface RenderedPage {
  html: string;
  /** Blocks everything but the page's own style and scripts, and framing (clickjacking). */
  contentSecurityPolicy: string;
}

export function renderPage(page: Page): RenderedPage {
  const scripts = page.scripts ?? [];
  const scriptSrc = scripts.length === 0 ? "'none'" : scripts.map(hash).join(' ');
  const html = `<!DOCTYPE html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)} · ${PRODUCT_NAME}</title>
<style>${STYLE}</style>
</head>
<body>
<main${page.wide === true ? ' class="wide"' : ''}>
<div class="brand">${LOGO}<span>${PRODUCT_NAME}</span></div>
${page.body}
</main>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>`;
  return {
    html,
    contentSecurityPolicy: `default-src 'none'; style-src ${STYLE_HASH}; script-src ${scriptSrc}; img-src data:; base-uri 'none'; frame-ancestors 'none'`,
  };
}

/** A card with a title, a message and links or buttons (errors, sign-out pages). */
export function messageCard(options: {
  title: string;
  message: string;
  actions?: string;
  languageLink?: string;
}): string {
  return `<div class="card">
<div class="card-head"><h1>${escapeHtml(options.title)}</h1>${options.languageLink ?? ''}</div>
<p class="lead">${escapeHtml(options.message)}</p>
${options.actions ?? ''}
</div>`;
}
