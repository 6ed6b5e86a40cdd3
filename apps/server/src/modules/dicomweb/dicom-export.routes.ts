import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../http/content-disposition.ts';
import type { DicomAccess } from './dicom-access.ts';
import { slideZip } from './dicom-export.ts';

// Ids stay plain strings: a malformed id names no image, so it answers 404 like any invisible one.
const ImageParams = z.object({ id: z.string() });

/** GET images/{id}/dicom (issue 45): the slide as DICOM WSI, one Part 10 file per level and associated picture. */
export const dicomExportRoutes: FastifyPluginAsyncZod<{ access: DicomAccess }> = async (app, { access }) => {
  app.get(
    '/images/:id/dicom',
    {
      schema: {
        operationId: 'exportImageDicom',
        tags: ['images'],
        summary: 'The slide as a zip of DICOM files; needs the right to download drawings',
        description:
          'VL Whole Slide Microscopy Image instances (TILED_FULL, JPEG baseline): one per pyramid level, then the ' +
          'label, overview and thumbnail pictures. Patient and study attributes come from the case. 409 while the ' +
          'image is not converted.',
        params: ImageParams,
      },
    },
    async (request, reply) => {
      const slide = await access.forExport(request.caller, request.params.id);
      const name = slide.slide.displayName.replace(/\.[^.]*$/, '');
      return reply
        .type('application/zip')
        .header('Content-Disposition', attachmentDisposition(`${name}.dicom.zip`))
        .send(slideZip(slide));
    },
  );
};
