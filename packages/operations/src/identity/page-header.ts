// What the pages' header offers a signed-in person: their account always, their business
// applications when they have any, the operator console when they are an operator.
import { isOperatorAccount, listOwnApplications, type Sql } from '@nogpets/store';

export interface PageHeader {
  /** The person has at least one business application (a draft kept from its link counts). */
  applicant: boolean;
  /** The person may use the operator console (`pnpm cli operator add`). */
  operator: boolean;
}

/** The header's links for this person: the same answer on every page. */
export async function pageHeaderOf(deps: { sql: Sql }, userId: string): Promise<PageHeader> {
  const [applications, operator] = await Promise.all([
    listOwnApplications(deps.sql, userId, 1),
    isOperatorAccount(deps.sql, userId),
  ]);
  return { applicant: applications.length > 0, operator };
}
