/**
 * Text the user takes away: copied to the clipboard (said in a toast, also when the browser
 * refuses) or saved as a file through the browser's download.
 * @module
 */
import { showToast } from "./toasts.tsx";

/** Copies `text`; the toast names `what` ("the transaction"). */
export function copyText(text: string, what: string): void {
  void navigator.clipboard.writeText(text).then(
    () => showToast(`Copied ${what}.`),
    () => showToast("Could not copy: the browser refused the clipboard.", "error"),
  );
}

/** Offers `text` as a download named `fileName`. */
export function saveText(text: string, fileName: string, type = "text/plain"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}
