/** The /api surface's version (docs/spec.md §1.5). */
export const API_VERSION = '8.1.0';
