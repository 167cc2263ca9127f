/**
 * Limits of `POST /api/runs` the page checks too, before sending: no imports, so the page's
 * bundle takes it without the schema.
 */

/** The longest message a run takes, in UTF-16 code units after trimming. */
export const MAX_MESSAGE_CHARS = 200_000;
