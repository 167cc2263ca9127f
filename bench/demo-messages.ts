/** The messages the live-run benches send the demo model in turn: file tools, a batch, none. */
export const DEMO_MESSAGES: readonly string[] = [
  "list the files",
  "read README.md",
  "calculate 12 * 12",
  "demo: parallel batch",
  "hello",
];
