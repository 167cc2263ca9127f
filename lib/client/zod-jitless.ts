/**
 * Loaded first by the page: zod compiles object parsers with `new Function` unless told not
 * to, and its probe for that is reported as a Content Security Policy violation (the page's
 * policy forbids eval, on purpose). In the browser, zod parses without compiling.
 */
import { z } from "zod";

z.config({ jitless: true });
