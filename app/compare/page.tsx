import type { Metadata } from "next";
import { ComparePage } from "@/components/compare/compare-page";

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
  return <ComparePage a={one(params.a)} b={one(params.b)} />;
}
