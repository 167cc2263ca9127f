import type { Metadata } from "next";
import { preload } from "react-dom";
import { ComparePage } from "@/components/compare/compare-page";
import { firstPageUrl } from "@/components/compare/load";

export const metadata: Metadata = { title: "Compare · Wirescope" };

/** `/compare?a=<id>&b=<id>`: two transcripts side by side; a picker for a missing one. */
export default async function Compare({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (value: string | string[] | undefined) =>
    typeof value === "string" && value !== "" ? value : undefined;
  const a = one(params.a);
  const b = one(params.b);
  // Both first pages start downloading with the HTML, while the page's scripts load; the
  // client's fetch of the same URL takes the preloaded answer.
  for (const id of [a, b])
    if (id !== undefined) preload(firstPageUrl(id), { as: "fetch", crossOrigin: "anonymous" });
  return <ComparePage a={a} b={b} />;
}
