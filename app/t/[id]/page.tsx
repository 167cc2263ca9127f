import { Playground } from "@/components/playground/playground";

/** A saved transcript's own URL: the playground with that transcript open. */
export default async function TranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <Playground transcriptId={id} />;
}
