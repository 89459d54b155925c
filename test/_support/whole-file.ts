import test from 'ava';
import type { Owner } from './child-processes.js';

/** The owner of a fixture a whole test file shares: ended by `test.after.always`. */
export const wholeFile: Owner = { teardown: (end) => test.after.always(end) };
