/** The /api surface's version (seed 001 §9). */
export const API_VERSION = '8.1.0';
