import fs from 'node:fs/promises';
import type { Case, Image, OrganizationList } from '@pathology/contract';
import type { Page } from 'playwright-core';
import { apiCall } from './case-api.ts';
import { accessToken } from './sign-in.ts';

/** The real worker converts the small test slides in seconds; a loaded machine gets room. */
const CONVERSION_TIMEOUT_MS = 90_000;

/** A new empty case in the named group, made through the API by the signed-in user. */
export async function createCase(page: Page, caseNumber: string, groupName: string): Promise<Case> {
  const groups = (await apiCall(page, 'GET', '/organizations')).json as OrganizationList;
  const group = groups.data.find((candidate) => candidate.name === groupName);
  if (!group) throw new Error(`the signed-in user is not in ${groupName}`);
  const { status, json } = await apiCall(page, 'POST', '/cases', { caseNumber, ownerOrganizationId: group.id });
  if (status !== 201 && status !== 200) throw new Error(`creating case ${caseNumber} answered ${status}`);
  return json as Case;
}

/** POST images with the file as the raw body, as the upload dialog does; returns the new image's id. */
export async function uploadImage(page: Page, caseId: string, file: string): Promise<string> {
  const filename = file.split('/').at(-1) ?? file;
  const response = await page.request.post(
    `/api/v1/images?caseId=${encodeURIComponent(caseId)}&filename=${encodeURIComponent(filename)}`,
    {
      headers: { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/octet-stream' },
      data: await fs.readFile(file),
      timeout: 60_000,
    },
  );
  if (response.status() !== 201) throw new Error(`uploading ${filename} answered ${response.status()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Polls GET images/{id} until the real worker has converted it (status available). */
export async function waitUntilAvailable(page: Page, imageId: string): Promise<Image> {
  const deadline = Date.now() + CONVERSION_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    const { status, json } = await apiCall(page, 'GET', `/images/${imageId}`);
    const image = json as Image;
    if (status === 200 && image.status === 'available') return image;
    last = status === 200 ? image.status : `HTTP ${status}`;
    await page.waitForTimeout(100);
  }
  throw new Error(`image ${imageId} was not converted in time (last: ${last})`);
}
