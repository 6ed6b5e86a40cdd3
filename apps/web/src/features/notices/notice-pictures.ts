import { fetchBinary } from '../case-images/fetch-binary.ts';

/** Where notice pictures are served (the API checks who asks, so a plain <img src> cannot load them). */
const MEDIA_URL = /\/api\/v1\/notices\/media\/[0-9a-f-]{36}/g;
const API_PREFIX = '/api/v1/';

/** Picture address → object URL of the picture fetched with the caller's token; kept for the page's life. */
const shown = new Map<string, Promise<string>>();

function objectUrl(mediaUrl: string): Promise<string> {
  let url = shown.get(mediaUrl);
  if (!url) {
    url = fetchBinary(mediaUrl.slice(API_PREFIX.length)).then((blob) => URL.createObjectURL(blob));
    url.catch(() => shown.delete(mediaUrl));
    shown.set(mediaUrl, url);
  }
  return url;
}

/** The HTML with each picture address replaced by a local copy the browser can show. */
export async function withShownPictures(html: string): Promise<string> {
  const addresses = [...new Set(html.match(MEDIA_URL) ?? [])];
  const urls = await Promise.all(addresses.map((address) => objectUrl(address).catch(() => address)));
  return addresses.reduce((result, address, index) => result.replaceAll(address, urls[index]!), html);
}

/** The local copy of a picture just uploaded, for the editor to show. */
export const shownPicture = objectUrl;

/** The HTML with local copies put back to the addresses the notice stores. */
export async function withStoredPictures(html: string): Promise<string> {
  let result = html;
  for (const [address, url] of shown) result = result.replaceAll(await url, address);
  return result;
}
