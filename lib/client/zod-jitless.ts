/**
 * Loaded first by the page: zod compiles object parsers with `new Function` unless told not
 * to, and its probe for that is reported as a Content Security Policy violation (the page's
 * policy forbids eval, on purpose). In the browser, zod parses without compiling.
 *
 * Set through the global object zod reads its configuration from (`__zod_globalConfig`),
 * without importing zod: the bundler may merge a module that builds a schema when it loads
 * (lib/cost's price schema) into zod's own chunk, and evaluate it with zod, before any code
 * that imports zod could call `z.config`. This runs first, so zod finds it set either way.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
