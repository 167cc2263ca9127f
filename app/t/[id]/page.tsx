import { preload } from "react-dom";
import { Playground } from "@/components/playground/playground";
import { tailPath } from "@/lib/client/record-pages";

/**
 * A saved transcript's own URL: the playground with that transcript open. The HTML names the
 * transcript's tail as a preload, so the browser reads it while the page's scripts load and
 * the client finds it there (same URL, same credentials mode as `fetch`) instead of asking
 * only after hydration.
 */
export default async function TranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  preload(tailPath(id), { as: "fetch", crossOrigin: "anonymous" });
  return <Playground transcriptId={id} />;
}
