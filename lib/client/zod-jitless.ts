/**
 * Loaded first by the page: zod compiles object parsers with `new Function` unless told not
 * to, and its probe for that is reported as a Content Security Policy violation (the page's
 * policy forbids eval, on purpose). In the browser, zod parses without compiling.
 *
 * Set through the global object zod reads its configuration from (`__zod_globalConfig`),
 * without importing zod: zod is loaded later, on demand (the dialect editor and the saved
 * dialects' validator), and the bundler may merge a module that builds a schema when it loads
 * into zod's own chunk, evaluated with zod before any code that imports zod could call
 * `z.config`. This runs first, so zod finds it set either way.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
