import type { ReactNode } from "react";

/** Small stroke icons (16px box) for the transcript and replay controls. */
function Icon({ children, size = 14 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const PencilIcon = () => (
  <Icon>
    <path d="M10.5 2.5l3 3L6 13H3v-3z" />
  </Icon>
);

export const TrashIcon = () => (
  <Icon>
    <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5" />
  </Icon>
);

export const PlusIcon = () => (
  <Icon>
    <path d="M8 3v10M3 8h10" />
  </Icon>
);

export const UploadIcon = () => (
  <Icon>
    <path d="M8 10V2.5M5 5.5l3-3 3 3M3 10.5v2.5h10v-2.5" />
  </Icon>
);

export const DownloadIcon = () => (
  <Icon>
    <path d="M8 2.5V10M5 7l3 3 3-3M3 10.5v2.5h10v-2.5" />
  </Icon>
);

export const SidebarIcon = () => (
  <Icon>
    <rect x="2" y="3" width="12" height="10" rx="1.5" />
    <path d="M6 3v10" />
  </Icon>
);

export const ForkIcon = () => (
  <Icon>
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="11.5" cy="3.5" r="1.5" />
    <circle cx="8" cy="12.5" r="1.5" />
    <path d="M4.5 5v1.5c0 1.5 1 2 3.5 2.5 2.5-.5 3.5-1 3.5-2.5V5M8 9v2" />
  </Icon>
);

export const PlayIcon = () => (
  <Icon>
    <path d="M5 3l8 5-8 5z" fill="currentColor" />
  </Icon>
);

export const PauseIcon = () => (
  <Icon>
    <path d="M5.5 3.5v9M10.5 3.5v9" strokeWidth="2" />
  </Icon>
);

export const StepBackIcon = () => (
  <Icon>
    <path d="M4 3.5v9M12.5 3.5L6.5 8l6 4.5z" fill="currentColor" />
  </Icon>
);

export const StepForwardIcon = () => (
  <Icon>
    <path d="M12 3.5v9M3.5 3.5L9.5 8l-6 4.5z" fill="currentColor" />
  </Icon>
);
