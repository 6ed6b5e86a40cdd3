/** A column of an export: its header, its SQL expression, and whether it is free text a user wrote. */
interface ExportColumn {
  name: string;
  sql: string;
  text?: boolean;
}

/** One CSV export: the SELECT that PostgreSQL writes as CSV, header first. */
export interface ExportQuery {
  filename: string;
  columns: readonly string[];
  sql: string;
}

const timestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * Free text that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return)
 * gets a leading apostrophe, which spreadsheets hide: OWASP's CSV injection defence, as
 * http/spreadsheet-safe.ts does for the files the server writes itself.
 */
const spreadsheetSafe = (sql: string) => `CASE WHEN ${sql} ~ E'^[=+@\\t\\r-]' THEN '''' || ${sql} ELSE ${sql} END`;

function exportQuery(filename: string, columns: ExportColumn[], from: string): ExportQuery {
  const select = columns.map((column) => `${column.text ? spreadsheetSafe(column.sql) : column.sql} AS ${column.name}`);
  return { filename, columns: columns.map((column) => column.name), sql: `SELECT ${select.join(', ')} ${from}` };
}

/** Every image with its case and group (GET export/images); the columns are documented in the README. */
export const IMAGES_EXPORT = exportQuery(
  'images.csv',
  [
    { name: 'image_id', sql: 'i.id' },
    { name: 'case_id', sql: 'i.case_id' },
    { name: 'case_number', sql: 'c.case_number', text: true },
    { name: 'organization', sql: 'o.name', text: true },
    { name: 'filename', sql: 'i.filename', text: true },
    { name: 'display_name', sql: 'i.display_name', text: true },
    { name: 'status', sql: 'i.status' },
    { name: 'size_bytes', sql: 'i.size' },
    { name: 'format', sql: 'i.format', text: true },
    { name: 'width', sql: 'i.width' },
    { name: 'height', sql: 'i.height' },
    { name: 'magnification', sql: 'i.magnification' },
    { name: 'organ', sql: 'i.organ', text: true },
    { name: 'specimen_type', sql: 'i.specimen_type' },
    { name: 'model_name', sql: 'i.model_name', text: true },
    { name: 'image_tags', sql: `array_to_string(i.image_tags, ',')`, text: true },
    { name: 'created_at', sql: timestamp('i.created_at') },
  ],
  `FROM images i JOIN cases c ON c.id = i.case_id JOIN organizations o ON o.id = c.owner_organization_id
   ORDER BY i.created_at, i.id`,
);

/** Every account with its groups and roles (GET export/users). */
export const USERS_EXPORT = exportQuery(
  'users.csv',
  [
    { name: 'account_id', sql: 'a.id' },
    { name: 'email', sql: 'a.email', text: true },
    { name: 'first_name', sql: 'a.first_name', text: true },
    { name: 'last_name', sql: 'a.last_name', text: true },
    { name: 'display_name', sql: 'a.display_name', text: true },
    { name: 'super_user', sql: `CASE WHEN a.is_super_user THEN 'true' ELSE 'false' END` },
    {
      name: 'groups',
      sql: `(SELECT string_agg(o.name || ' (' || m.role::text || ')', '; ' ORDER BY o.name)
        FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.account_id = a.id)`,
      text: true,
    },
    { name: 'created_at', sql: timestamp('a.created_at') },
  ],
  'FROM accounts a ORDER BY a.created_at, a.id',
);

/** Every attachment with its case (GET export/attachments). */
export const ATTACHMENTS_EXPORT = exportQuery(
  'attachments.csv',
  [
    { name: 'attachment_id', sql: 't.id' },
    { name: 'case_id', sql: 't.case_id' },
    { name: 'case_number', sql: 'c.case_number', text: true },
    { name: 'organization', sql: 'o.name', text: true },
    { name: 'filename', sql: 't.filename', text: true },
    { name: 'content_type', sql: 't.content_type', text: true },
    { name: 'size_bytes', sql: 't.size_bytes' },
    { name: 'created_at', sql: timestamp('t.created_at') },
  ],
  `FROM attachments t JOIN cases c ON c.id = t.case_id JOIN organizations o ON o.id = c.owner_organization_id
   ORDER BY t.created_at, t.id`,
);
