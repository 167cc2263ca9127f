// The one copy button lives in components/copy; this path stays for existing imports.
export { CopyButton } from "@/components/copy/copy-button";
