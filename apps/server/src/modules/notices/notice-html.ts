import { sanitizeHtml } from '../../on-first-use.ts';

/** Where notice pictures are served; an <img> may point nowhere else. */
export const NOTICE_MEDIA_PATH = '/api/v1/notices/media/';
const MEDIA_SOURCE = /^\/api\/v1\/notices\/media\/[0-9a-f-]{36}$/;

/**
 * A notice body as it may be stored and shown: the formatting TipTap produces, links to http(s) and
 * mail only, pictures only from our own media route, and no script, event handler, style or URL
 * scheme that could run code. Applied on every write; the web sanitises again when it renders.
 */
export function sanitizeNoticeHtml(html: string): string {
  return sanitizeHtml()(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'h1',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'blockquote',
      'code',
      'pre',
      'hr',
      'a',
      'img',
    ],
    allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' },
      }),
    },
    exclusiveFilter: (frame) => frame.tag === 'img' && !MEDIA_SOURCE.test(frame.attribs.src ?? ''),
  });
}

/** True when the sanitised body has no text and no picture: an empty editor counts as blank. */
export function isBlankNotice(html: string): boolean {
  return sanitizeHtml()(html, { allowedTags: ['img'], allowedAttributes: { img: ['src'] } }).trim() === '';
}
