import { Playground } from "@/components/playground/playground";

export default function HomePage() {
  return <Playground />;
}
