// `npx tsx scripts/postgres-dev.ts`: a throwaway PostgreSQL server to try Wirescope on, the
// one the tests use (lib/store/postgres-cluster.ts). Prints the DATABASE_URL to start the app
// with, and stops and deletes the server (and everything stored in it) on Ctrl-C.
import { startCluster } from "../lib/store/postgres-cluster";

async function main(): Promise<void> {
  const cluster = await startCluster();
  const url = await cluster.createDatabase();
  console.log("A throwaway PostgreSQL server is running. In another terminal:\n");
  console.log(`  DATABASE_URL=${url} npm start\n`);
  console.log("Ctrl-C stops it and deletes its data.");
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      cluster.stop();
      process.exit(0);
    });
  // Keep the process (and so the server) alive until a signal.
  setInterval(() => {}, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
