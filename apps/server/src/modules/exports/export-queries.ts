/** One CSV export: its columns (the header) and the query whose rows, as arrays, fill them in order. */
export interface ExportQuery {
  filename: string;
  columns: readonly string[];
  sql: string;
}

const timestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** Every image with its case and group (GET export/images); the columns are documented in the README. */
export const IMAGES_EXPORT: ExportQuery = {
  filename: 'images.csv',
  columns: [
    'image_id',
    'case_id',
    'case_number',
    'organization',
    'filename',
    'display_name',
    'status',
    'size_bytes',
    'format',
    'width',
    'height',
    'magnification',
    'organ',
    'specimen_type',
    'model_name',
    'image_tags',
    'created_at',
  ],
  sql: `SELECT i.id, i.case_id, c.case_number, o.name, i.filename, i.display_name, i.status::text, i.size, i.format,
      i.width, i.height, i.magnification, i.organ, i.specimen_type::text, i.model_name,
      array_to_string(i.image_tags, ','), ${timestamp('i.created_at')}
    FROM images i JOIN cases c ON c.id = i.case_id JOIN organizations o ON o.id = c.owner_organization_id
    ORDER BY i.created_at, i.id`,
};

/** Every account with its groups and roles (GET export/users). */
export const USERS_EXPORT: ExportQuery = {
  filename: 'users.csv',
  columns: ['account_id', 'email', 'first_name', 'last_name', 'display_name', 'super_user', 'groups', 'created_at'],
  sql: `SELECT a.id, a.email, a.first_name, a.last_name, a.display_name, a.is_super_user,
      (SELECT string_agg(o.name || ' (' || m.role::text || ')', '; ' ORDER BY o.name)
         FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.account_id = a.id),
      ${timestamp('a.created_at')}
    FROM accounts a ORDER BY a.created_at, a.id`,
};

/** Every attachment with its case (GET export/attachments). */
export const ATTACHMENTS_EXPORT: ExportQuery = {
  filename: 'attachments.csv',
  columns: [
    'attachment_id',
    'case_id',
    'case_number',
    'organization',
    'filename',
    'content_type',
    'size_bytes',
    'created_at',
  ],
  sql: `SELECT t.id, t.case_id, c.case_number, o.name, t.filename, t.content_type, t.size_bytes, ${timestamp('t.created_at')}
    FROM attachments t JOIN cases c ON c.id = t.case_id JOIN organizations o ON o.id = c.owner_organization_id
    ORDER BY t.created_at, t.id`,
};
