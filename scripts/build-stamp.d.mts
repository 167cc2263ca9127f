export function sourceHash(root: string): string;
export function buildIsCurrent(root: string): boolean;
export function writeStamp(root: string, hash: string): void;
