/** The round check mark of the order pages. */
export function SuccessMark() {
  return (
    <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
      <svg
        width="28"
        height="28"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M20 6 9 17l-5-5" />
      </svg>
    </span>
  );
}
