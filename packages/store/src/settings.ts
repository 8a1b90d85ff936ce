// Settings: service-wide settings made once and shared by every instance.
import type { Queryable } from './sql.js';

/** A service-wide setting, made by `make` the first time it is asked for (the same for every instance). */
export async function settingOrCreate(sql: Queryable, key: string, make: () => string): Promise<string> {
  await sql`insert into settings (key, value) values (${key}, ${make()}) on conflict do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from settings where key = ${key}`;
  return row!.value;
}
