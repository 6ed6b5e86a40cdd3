/** Who is calling: the local account behind a verified token. */
export interface Caller {
  accountId: string;
  email: string;
  isSuperUser: boolean;
}
