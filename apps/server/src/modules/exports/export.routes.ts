import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { ATTACHMENTS_EXPORT, IMAGES_EXPORT, USERS_EXPORT, type ExportQuery } from './export-queries.ts';
import { exportCsv } from './export-stream.ts';

interface ExportDeps {
  pool: pg.Pool;
  capabilities: Pick<CapabilitiesService, 'requireRoleCheck'>;
}

const EXPORTS: Record<string, ExportQuery> = {
  images: IMAGES_EXPORT,
  users: USERS_EXPORT,
  attachments: ATTACHMENTS_EXPORT,
};

/** CSV exports of the whole installation (part 3 §7), for super users only. */
export const exportRoutes: FastifyPluginAsyncZod<ExportDeps> = async (app, { pool, capabilities }) => {
  for (const [name, query] of Object.entries(EXPORTS)) {
    app.get(
      `/export/${name}`,
      {
        schema: {
          operationId: `export${name[0]!.toUpperCase()}${name.slice(1)}`,
          tags: ['exports'],
          summary: `Every ${name.replace(/s$/, '')} as CSV (UTF-8 with BOM), streamed; super users only`,
          description: `Columns: ${query.columns.join(', ')}.`,
        },
      },
      async (request, reply) => {
        await capabilities.requireRoleCheck(request.caller, 'isSuperUser');
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${query.filename}"`)
          .send(exportCsv(pool, query));
      },
    );
  }
};
