/**
 * Copies a hash, key or account name to the clipboard and says so in a toast.
 * @module
 */
import { Button } from "./Button.tsx";
import { showToast } from "./toasts.tsx";

export type CopyButtonProps = {
  readonly value: string;
  /** What is copied, for the button's accessible name: "Copy block hash". */
  readonly what: string;
};

export function CopyButton({ value, what }: CopyButtonProps) {
  const copy = () => {
    void navigator.clipboard.writeText(value).then(
      () => showToast(`Copied the ${what}.`),
      () => showToast(`Could not copy the ${what}: the browser refused the clipboard.`, "error"),
    );
  };
  return (
    <Button tone="quiet" size="sm" onPress={copy} aria-label={`Copy ${what}`}>
      Copy
    </Button>
  );
}
