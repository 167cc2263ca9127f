import { create } from "zustand";

/**
 * Why the live run's stream was cut while the page attaches to it again (`null`: connected),
 * so the status line can say "Reconnecting…" through a server restart rather than "Running…".
 */
export const useRunConnection = create<{ cut: string | null }>(() => ({ cut: null }));
