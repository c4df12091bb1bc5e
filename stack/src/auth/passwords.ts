import { hash, hashSync, verify } from '@node-rs/bcrypt';

/** As GoTrue writes them (Go's bcrypt): version 2a, cost 10. */
const BCRYPT = { cost: 10, version: '2a' } as const;

/**
 * Passwords as GoTrue keeps them: bcrypt, cost 10. The work runs on libuv's thread pool, not on the stack's
 * event loop, which the gateway, Storage and Realtime share: a sign-in's ~50 ms of hashing no longer holds
 * up every other request (a JavaScript bcrypt took ~75 ms of that loop per sign-in).
 */
export const hashPassword = (password: string): Promise<string> => hash(password, BCRYPT);

/** Whether `password` is the one `encrypted` was made from; a value that is not a bcrypt hash matches nothing. */
export const passwordMatches = (password: string, encrypted: string): Promise<boolean> => verify(password, encrypted);

/** Compared against when the e-mail is unknown, so that a wrong address costs the same time as a wrong password. */
export const DUMMY_HASH = hashSync('not-a-real-password', BCRYPT);
