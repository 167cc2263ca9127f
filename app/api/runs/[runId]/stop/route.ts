import { guardedRoute, otherMethods, problem } from "@/app/api/http";
import { readConfig } from "@/lib/server/config";
import { noRunMessage } from "@/lib/server/run-events";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";
import type { Store } from "@/lib/store";
import { impossibleRunId } from "../../run-id";
import { endedMessage, type RunIdentity, runEnding } from "./run-ending";

export const runtime = "nodejs";

/**
 * Interrupts a run in progress (from any connection, on any instance sharing the database);
 * its viewers then get its `interrupt` event. The page's Stop and a captured call's stop both
 * come here.
 *
 * - 200 `{ stopped }`: the stop was sent (here at once; another instance's run at its next poll).
 * - 202 `{ stopping, message }`: a stop was sent already and the run is still winding down
 *   (a repeated Stop; for another instance's run, the store's `stopRequestedAt` tells); nothing
 *   more is done. Of two stops at once, one here and one through another instance, the first
 *   noted in the store gets 200 and the other 202 (a stop here is noted there too).
 * - 409 `{ error, ended }`: the run has ended, and how (`end`, or `interrupt` with its reason).
 * - 404: no such run, or it has ended and its transcript is deleted (as the events route says).
 */
async function post(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const { runId } = await context.params;
  const impossible = impossibleRunId(runId);
  if (impossible !== null) return impossible;
  const store = getStore(readConfig().dataDir);
  const registry = runRegistry();
  const local = registry.get(runId);
  // Finished here, its end not yet noted in the store: ended all the same.
  if (local?.finished === true) return ended(store, local);
  if (local !== undefined) {
    if (local.stoppedBy !== null) return stopping(runId, local.stoppedBy);
    if (registry.stop(runId)) return stoppedHere(store, runId);
    // Here, not stoppable: it is finishing on its own (no stop was sent), so it has ended.
    return ended(store, local);
  }
  const info = await store.getRunInfo(runId);
  if (info === null) return noRun(runId);
  if (info.endedAt === null) {
    // Another instance's run (or this one's, ending): asked through the store, which refuses
    // once its end is noted. A stop asked for there before (every one is a user's: this
    // route's, or a deleted transcript's) is repeated, like a second Stop of a run here; of
    // two at once, one gets 200 and the other 202.
    const asked = await store.requestRunStop(runId, Date.now());
    if (asked === "requested") return Response.json({ stopped: runId });
    if (asked === "already") return stopping(runId, "user");
  }
  return ended(store, info);
}

/**
 * Stopped here at once; noted in the store too, so that of two stops at once — this one and one
 * sent through another instance — one gets 200 and the other 202, whichever the store saw first.
 * A store that cannot note it changes nothing: the run is stopped.
 */
async function stoppedHere(store: Store, runId: string): Promise<Response> {
  const asked = await store.requestRunStop(runId, Date.now()).catch(() => "requested" as const);
  if (asked === "already") return stopping(runId, "user");
  return Response.json({ stopped: runId });
}

function stopping(runId: string, by: "user" | "disconnect"): Response {
  return Response.json(
    {
      stopping: runId,
      message: `Run "${runId}" is already stopping (${by}); it ends once what it was doing has stopped.`,
    },
    { status: 202 },
  );
}

async function ended(store: Store, run: RunIdentity): Promise<Response> {
  const ending = await runEnding(store, run);
  if (ending === null) return noRun(run.runId, " (its transcript was deleted)");
  return problem(409, endedMessage(run.runId, ending), { ended: ending });
}

const noRun = (runId: string, why = "") => problem(404, noRunMessage(runId, why));

export const POST = guardedRoute(post);

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
