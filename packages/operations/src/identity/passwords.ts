/**
 * The password rule and its hashing, in one place: what a password must be, how it is stored
 * (argon2id, @node-rs/argon2's defaults) and how a sign-in checks it. The pages call the
 * operations that use these; they keep only the form.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

/** Why a chosen password cannot be used, in words for the form; null when it can. */
export function passwordProblem(password: string): string | null {
  return password.length < MIN_PASSWORD || password.length > MAX_PASSWORD
    ? `Choose a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters, or leave it empty.`
    : null;
}

/** The stored form of a password. */
export const hashPassword = (password: string): Promise<string> => hash(password);

let dummy: Promise<string> | undefined;
/** A hash to verify against when an email has no password, so that answer takes as long. */
const dummyHash = () => {
  dummy ??= hash(randomBytes(16).toString('hex'));
  return dummy;
};

/** argon2 against the stored hash; without one, against the dummy, and no match. */
export async function checkPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash) return verify(passwordHash, password);
  await verify(await dummyHash(), password);
  return false;
}
