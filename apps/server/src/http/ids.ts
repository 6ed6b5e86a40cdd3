const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or query value can be a row id: anything else names nothing, and must not reach a uuid cast. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
